import { ApiError } from './errors.js';

export interface Account {
  user: { id: string; email: string; email_confirmed: boolean };
  merchant: { id: string; name: string; blockchain: string; accepted_currencies: string[] };
}

export interface TokenPair {
  access_token: string;
  expires_in: number;
  refresh_token: string;
}

export type SessionState =
  { kind: 'signed-out'; reason?: 'expired' } | { kind: 'signed-in'; account: Account };

type Body = Record<string, unknown> | undefined;

/**
 * Renew a minute before the access token expires (at half its life when it lives under two
 * minutes), so that no request meets an expired one.
 */
const renewAfterMs = (expiresInSeconds: number): number =>
  Math.max((expiresInSeconds * 1000) / 2, expiresInSeconds * 1000 - 60_000);

/**
 * The signed-in session. Both tokens live only in this object's memory: no storage that an
 * injected script could read later, and nothing outlives the tab (see docs/dashboard.md). The
 * access token is renewed silently before it expires, rotating the refresh token each time; a 401
 * on a request triggers one renewal and one retry. One renewal runs at a time.
 */
export class Session {
  private access?: string;
  private refreshToken?: string;
  private timer?: ReturnType<typeof setTimeout>;
  private renewing?: Promise<boolean>;
  private listeners = new Set<(s: SessionState) => void>();
  state: SessionState = { kind: 'signed-out' };

  constructor(private readonly gatewayUrl: string) {}

  subscribe(listener: (s: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: SessionState) {
    this.state = state;
    for (const l of this.listeners) l(state);
  }

  /** One call to the gateway in the envelope; the parsed `data` (or the whole body without one). */
  async send<T>(
    method: string,
    path: string,
    opts: {
      body?: Body;
      bearer?: string;
      idempotencyKey?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ data: T; message?: string }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.gatewayUrl), {
        method,
        headers: {
          accept: 'application/json',
          ...(opts.body ? { 'content-type': 'application/json' } : {}),
          ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
          ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
          ...opts.headers,
        },
        body: opts.body ? JSON.stringify(opts.body) : undefined,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'network');
    }
    const json = (await res.json().catch(() => undefined)) as
      | { success?: boolean; data?: T; message?: string; error?: string; details?: ApiError['details'] }
      | undefined;
    if (!res.ok || json?.success === false) {
      const retry = Number(res.headers.get('retry-after'));
      throw new ApiError(
        res.status,
        json?.error ?? res.statusText,
        json?.details ?? [],
        Number.isFinite(retry) && retry > 0 ? retry : undefined,
      );
    }
    return { data: json?.data as T, message: json?.message };
  }

  private adopt(pair: TokenPair) {
    this.access = pair.access_token;
    this.refreshToken = pair.refresh_token;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.renew(), renewAfterMs(pair.expires_in));
  }

  private clear(reason?: 'expired') {
    clearTimeout(this.timer);
    this.access = undefined;
    this.refreshToken = undefined;
    this.renewing = undefined;
    this.set({ kind: 'signed-out', reason });
  }

  /** Signs in with a token pair from /auth/login (or a second factor), then loads the account. */
  async begin(pair: TokenPair): Promise<void> {
    this.adopt(pair);
    const { data } = await this.send<Account>('GET', '/auth/me', { bearer: this.access });
    this.set({ kind: 'signed-in', account: data });
  }

  /** Reads the account again: its address was just confirmed, in this tab or another. */
  async reloadAccount(): Promise<void> {
    if (this.state.kind !== 'signed-in') return;
    const account = await this.call<Account>('GET', '/auth/me');
    this.set({ kind: 'signed-in', account });
  }

  /**
   * The password step. With two-factor sign-in on, the gateway answers a challenge instead of
   * tokens: its token is returned for `signInWithCode` (and is kept nowhere else).
   */
  async signIn(email: string, password: string): Promise<{ mfaToken: string } | undefined> {
    const { data } = await this.send<TokenPair | { mfa_required: true; mfa_token: string }>(
      'POST',
      '/auth/login',
      { body: { email, password } },
    );
    if ('mfa_required' in data) return { mfaToken: data.mfa_token };
    await this.begin(data);
    return undefined;
  }

  /** The second step: an authenticator code or a recovery code. */
  async signInWithCode(mfaToken: string, code: string): Promise<void> {
    const { data } = await this.send<TokenPair>('POST', '/auth/login/mfa', {
      body: { mfa_token: mfaToken, code },
    });
    await this.begin(data);
  }

  /** Takes the pair a password change hands back (every other session of the user has ended). */
  replaceTokens(pair: TokenPair): void {
    this.adopt(pair);
  }

  /**
   * Signs in again with the password, for an action that needs a recent sign-in: this session
   * takes the new tokens and the old refresh token is ended. False when the account asks for a
   * second factor (such actions take an authenticator code instead).
   */
  async reauthenticate(email: string, password: string): Promise<boolean> {
    const { data } = await this.send<TokenPair | { mfa_required: true }>('POST', '/auth/login', {
      body: { email, password },
    });
    if ('mfa_required' in data) return false;
    const old = this.refreshToken;
    this.adopt(data);
    if (old) await this.send('POST', '/auth/logout', { body: { refresh_token: old } }).catch(() => {});
    return true;
  }

  /** Rotates the refresh token; false (and signed out) when the gateway no longer accepts it. */
  renew(): Promise<boolean> {
    this.renewing ??= (async () => {
      const token = this.refreshToken;
      if (!token) return false;
      try {
        const { data } = await this.send<TokenPair>('POST', '/auth/refresh', {
          body: { refresh_token: token },
        });
        this.adopt(data);
        return true;
      } catch (err) {
        // A network failure leaves the session as it is: the next request tries again.
        if (err instanceof ApiError && err.status === 0) return false;
        this.clear('expired');
        return false;
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  async signOut(): Promise<void> {
    const token = this.refreshToken;
    this.clear();
    if (token) await this.send('POST', '/auth/logout', { body: { refresh_token: token } }).catch(() => {});
  }

  /** A bearer-token request; one silent renewal and retry when the access token was refused. */
  async call<T>(method: string, path: string, body?: Body, idempotencyKey?: string): Promise<T> {
    return (await this.callWithMessage<T>(method, path, body, idempotencyKey)).data;
  }

  async callWithMessage<T>(
    method: string,
    path: string,
    body?: Body,
    idempotencyKey?: string,
    headers?: Record<string, string>,
  ): Promise<{ data: T; message?: string }> {
    if (!this.access) throw new ApiError(401, 'signed out');
    try {
      return await this.send<T>(method, path, { body, bearer: this.access, idempotencyKey, headers });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401 || !(await this.renew())) throw err;
      return this.send<T>(method, path, { body, bearer: this.access, idempotencyKey, headers });
    }
  }

  /** A request to a route that needs a step-up: the authenticator code, when there is one, goes with it. */
  async callConfirmed<T>(method: string, path: string, body: Body, mfaCode?: string): Promise<T> {
    const headers = mfaCode ? { 'x-mfa-code': mfaCode } : undefined;
    return (await this.callWithMessage<T>(method, path, body, undefined, headers)).data;
  }

  /** A bearer-token download (invoice PDFs): the body as a Blob. */
  async download(path: string): Promise<Blob> {
    const get = () =>
      fetch(new URL(path, this.gatewayUrl), {
        headers: { authorization: `Bearer ${this.access}` },
        credentials: 'omit',
        cache: 'no-store',
      });
    let res = await get();
    if (res.status === 401 && (await this.renew())) res = await get();
    if (!res.ok) {
      const json = (await res.json().catch(() => undefined)) as { error?: string } | undefined;
      throw new ApiError(res.status, json?.error ?? res.statusText);
    }
    return res.blob();
  }
}

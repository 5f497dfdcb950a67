import { ApiError } from './errors.js';
import { fetchFile, fileOf, send, type Answer, type Request } from './gateway.js';
import type { ArgsOf, Operation, ResponseOf } from './operations.js';

export type Account = ResponseOf<'me'>;
export type TokenPair = ResponseOf<'refreshToken'>;

export type SessionState =
  { kind: 'signed-out'; reason?: 'expired' } | { kind: 'signed-in'; account: Account };

/**
 * How a signed-in call goes: an idempotency key for a POST that must not repeat, and the
 * authenticator code for a route that asks for a step-up.
 */
export interface CallOptions {
  idempotencyKey?: string;
  mfaCode?: string;
}

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

  /** The gateway's address: calls go there, and the logo it serves is shown from there. */
  constructor(readonly gatewayUrl: string) {}

  subscribe(listener: (s: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: SessionState) {
    this.state = state;
    for (const l of this.listeners) l(state);
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

  /** A call that needs no sign-in (registration, the chains): the answer's data and message. */
  open<Op extends Operation>(op: Op, ...[request]: ArgsOf<Op, object>): Promise<Answer<Op>> {
    return send(this.gatewayUrl, op, (request ?? {}) as Request);
  }

  /** Signs in with a token pair from /auth/login (or a second factor), then loads the account. */
  async begin(pair: TokenPair): Promise<void> {
    this.adopt(pair);
    const { data } = await send(this.gatewayUrl, 'me', {}, { bearer: this.access });
    this.set({ kind: 'signed-in', account: data });
  }

  /** Reads the account again: its address was just confirmed, in this tab or another. */
  async reloadAccount(): Promise<void> {
    if (this.state.kind !== 'signed-in') return;
    const account = await this.call('me');
    this.set({ kind: 'signed-in', account });
  }

  /**
   * The password step. With two-factor sign-in on, the gateway answers a challenge instead of
   * tokens: its token is returned for `signInWithCode` (and is kept nowhere else).
   */
  async signIn(email: string, password: string): Promise<{ mfaToken: string } | undefined> {
    const { data } = await this.open('login', { body: { email, password } });
    if ('mfa_required' in data) return { mfaToken: data.mfa_token };
    await this.begin(data);
    return undefined;
  }

  /** The second step: an authenticator code or a recovery code. */
  async signInWithCode(mfaToken: string, code: string): Promise<void> {
    const { data } = await this.open('loginMfa', { body: { mfa_token: mfaToken, code } });
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
    const { data } = await this.open('login', { body: { email, password } });
    if ('mfa_required' in data) return false;
    const old = this.refreshToken;
    this.adopt(data);
    if (old) await this.open('logout', { body: { refresh_token: old } }).catch(() => {});
    return true;
  }

  /** Rotates the refresh token; false (and signed out) when the gateway no longer accepts it. */
  renew(): Promise<boolean> {
    this.renewing ??= (async () => {
      const token = this.refreshToken;
      if (!token) return false;
      try {
        const { data } = await this.open('refreshToken', { body: { refresh_token: token } });
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
    if (token) await this.open('logout', { body: { refresh_token: token } }).catch(() => {});
  }

  /**
   * A bearer-token call of an operation; one silent renewal and retry when the access token was
   * refused. A step-up route's authenticator code, when there is one, goes in X-Mfa-Code.
   */
  async call<Op extends Operation>(op: Op, ...[request]: ArgsOf<Op, CallOptions>): Promise<ResponseOf<Op>> {
    if (!this.access) throw new ApiError(401, 'signed out');
    const { idempotencyKey, mfaCode, ...parts } = (request ?? {}) as Request & CallOptions;
    const headers = mfaCode ? { 'x-mfa-code': mfaCode } : undefined;
    const attempt = async () =>
      (await send(this.gatewayUrl, op, parts, { bearer: this.access, idempotencyKey, headers })).data;
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401 || !(await this.renew())) throw err;
      return attempt();
    }
  }

  /** A bearer-token download (invoice PDFs, CSV exports): the body as a Blob. */
  async download<Op extends Operation>(op: Op, ...[request]: ArgsOf<Op, object>): Promise<Blob> {
    const get = () => fetchFile(this.gatewayUrl, op, (request ?? {}) as Request, this.access);
    let res = await get();
    if (res.status === 401 && (await this.renew())) res = await get();
    return fileOf(res);
  }
}

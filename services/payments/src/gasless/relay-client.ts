import {
  ErrorEnvelope,
  GaslessCheckResponse,
  type Currency,
  type GaslessCheck,
  type GaslessCheckBody,
  type GaslessGasEstimate,
  type GaslessGasEstimateQuery,
  type TokenDomainView,
} from '@stablepay/contracts';
import {
  AppError,
  INTERNAL_TOKEN_HEADER,
  InternalRouteClient,
  currentContext,
  signInternalToken,
  type ErrorKind,
} from '@stablepay/platform';
import type { PaymentsConfig } from '../config.js';

/** What a gasless payment needs from the chain-watcher, which holds the relay and reads the chains. */
export interface GaslessRelay {
  /** The token's EIP-712 domain on the chain; undefined when the chain has no such token. */
  tokenDomain(chainId: number, token: Currency): Promise<TokenDomainView | undefined>;
  /** The relay's address on the chain (the recipient of a cross-chain authorization). */
  relayerOn(chainId: number): Promise<string | undefined>;
  /**
   * Whether the relay could submit the authorization now (simulated with eth_call), and its gas.
   * The chain-watcher's refusal (422, 429, 503) is thrown as the same AppError it answered.
   */
  check(body: GaslessCheckBody): Promise<GaslessCheck>;
  /** The relay's gas on the customer's chain, estimated on the chain before anything is signed. */
  gasEstimate(query: GaslessGasEstimateQuery): Promise<GaslessGasEstimate>;
}

/** The relay could not be asked: the customer may try again shortly, nothing was stored. */
const relayUnavailable = () =>
  new AppError('unavailable', 'Gasless payments are unavailable right now; try again shortly', [], 5);

const RELAYERS_FRESH_MS = 60_000;

/** The statuses of the check route's refusals, passed through to the customer as they came. */
const REFUSAL_KINDS: Record<number, ErrorKind> = {
  422: 'unprocessable',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * The chain-watcher's internal routes for gasless payments, with a short-lived service token and
 * the current correlation id (GETs through the platform's route client; the check is a POST).
 */
export class ChainWatcherRelay implements GaslessRelay {
  private readonly routes: InternalRouteClient;
  private readonly domains = new Map<string, TokenDomainView>();
  private relayers?: { at: number; list: Array<{ chainId: number; address: string }> };

  constructor(private readonly opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {
    this.routes = new InternalRouteClient({
      baseUrl: opts.baseUrl,
      secret: opts.internalTokenSecret,
      timeoutMs: opts.timeoutMs,
      unavailable: relayUnavailable,
    });
  }

  /** A token's domain never changes on its chain: read once per process. */
  async tokenDomain(chainId: number, token: Currency): Promise<TokenDomainView | undefined> {
    const key = `${chainId}:${token}`;
    const known = this.domains.get(key);
    if (known) return known;
    const answer = await this.routes.get('getGaslessTokenDomain', {
      params: undefined,
      query: { chainId: String(chainId), token },
      what: 'token domain',
      absentOn: [404],
    });
    if (answer) this.domains.set(key, answer.data);
    return answer?.data;
  }

  /**
   * The relayer list reads every relay's gas balance on its chain, and its addresses change only
   * with the configuration: it is read again after RELAYERS_FRESH_MS.
   */
  async relayerOn(chainId: number): Promise<string | undefined> {
    if (!this.relayers || Date.now() - this.relayers.at > RELAYERS_FRESH_MS) {
      const answer = await this.routes.get('listRelayers', { params: undefined, what: 'relayer' });
      this.relayers = { at: Date.now(), list: answer?.data.relayers ?? [] };
    }
    return this.relayers.list.find((r) => r.chainId === chainId)?.address;
  }

  async gasEstimate(query: GaslessGasEstimateQuery): Promise<GaslessGasEstimate> {
    const answer = await this.routes.get('getGaslessGasEstimate', {
      params: undefined,
      query: {
        chainId: String(query.chainId),
        token: query.token,
        to: query.to,
        ...(query.destinationChainId !== undefined
          ? { destinationChainId: String(query.destinationChainId) }
          : {}),
      },
      what: 'relay gas estimate',
    });
    if (!answer) throw relayUnavailable();
    return answer.data;
  }

  async check(body: GaslessCheckBody): Promise<GaslessCheck> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      [INTERNAL_TOKEN_HEADER]: signInternalToken(this.opts.internalTokenSecret, { caller: 'service' }, 60),
    };
    const { correlationId } = currentContext();
    if (correlationId) headers['x-correlation-id'] = correlationId;
    const url = new URL('internal/gasless/check', this.opts.baseUrl.replace(/\/?$/, '/'));
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch {
      throw relayUnavailable();
    }
    const answer: unknown = await res.json().catch(() => undefined);
    if (res.ok) {
      const parsed = GaslessCheckResponse.safeParse(answer);
      if (parsed.success) return parsed.data.data;
      throw relayUnavailable();
    }
    const kind = REFUSAL_KINDS[res.status];
    const refusal = ErrorEnvelope.safeParse(answer);
    if (!kind || !refusal.success) throw relayUnavailable();
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new AppError(
      kind,
      refusal.data.error,
      refusal.data.details,
      Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
}

/** The relay a deployed service asks: the chain-watcher named in the configuration. */
export const chainWatcherRelay = (config: PaymentsConfig): GaslessRelay =>
  new ChainWatcherRelay({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });

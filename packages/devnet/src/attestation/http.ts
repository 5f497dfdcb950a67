import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isHexString } from 'ethers';

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** What each path of Circle's attestation API answers; arguments are already checked. */
export interface IrisRoutes {
  messages(sourceDomain: number, filter: { transactionHash?: string; nonce?: string }): ApiResponse;
  fees(sourceDomain: number, destinationDomain: number, forward: boolean): Promise<ApiResponse>;
  reattest(nonce: string): Promise<ApiResponse>;
  publicKeys(): ApiResponse;
  v1Attestation(messageHash: string): ApiResponse;
}

/** Failure modes tests switch on; the automatic rate limit behaves as Circle's when configured. */
export class ServiceModes {
  delayMs = 0;
  failStatus: number | null = null;
  forceRateLimit = false;
  requests = 0;
  private recent: number[] = [];
  private blockedUntil = 0;

  constructor(private readonly rateLimit: { requestsPerSecond: number; blockMs: number } | false) {}

  /** Counts the request; true when it must be refused with 429. */
  limited(now = Date.now()): boolean {
    this.requests++;
    if (this.forceRateLimit) return true;
    if (!this.rateLimit) return false;
    if (now < this.blockedUntil) return true;
    this.recent = this.recent.filter((at) => at > now - 1_000);
    this.recent.push(now);
    if (this.recent.length > this.rateLimit.requestsPerSecond) {
      this.blockedUntil = now + this.rateLimit.blockMs;
      return true;
    }
    return false;
  }

  retryAfterSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.blockedUntil - now) / 1_000));
  }

  clearRateLimit(): void {
    this.blockedUntil = 0;
    this.recent = [];
  }
}

const error = (status: number, message: string): ApiResponse => ({ status, body: { error: message } });
const BYTES32 = (value: string | null): value is string => value !== null && isHexString(value, 32);
/**
 * The nonce of POST /v2/reattest/{nonce}: the V2 message's bytes32 as it carries it (`0x` + 64 hex,
 * any case), which is what Iris reports as `eventNonce`, or the same number in decimal, the form
 * of Circle's example answer (`"9682"`). Lower-case bytes32 hex, or undefined when it is neither.
 */
export const reattestNonce = (value: string | null): string | undefined => {
  if (BYTES32(value)) return value.toLowerCase();
  if (value === null || !/^\d{1,78}$/.test(value)) return undefined;
  const n = BigInt(value);
  return n < 2n ** 256n ? `0x${n.toString(16).padStart(64, '0')}` : undefined;
};
const domainParam = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,10}$/.test(value) && Number(value) <= 0xffff_ffff ? Number(value) : undefined;

const route = async (method: string, url: URL, routes: IrisRoutes): Promise<ApiResponse> => {
  const parts = url.pathname.split('/').filter(Boolean);
  const [version, resource] = parts;
  if (method === 'GET' && version === 'v2' && resource === 'messages' && parts.length === 3) {
    const domain = domainParam(parts[2]);
    if (domain === undefined) return error(400, 'Invalid sourceDomainId');
    const transactionHash = url.searchParams.get('transactionHash');
    const nonce = url.searchParams.get('nonce');
    if (transactionHash === null && nonce === null) return error(400, 'transactionHash or nonce is required');
    if (transactionHash !== null && !BYTES32(transactionHash)) return error(400, 'Invalid transactionHash');
    if (nonce !== null && !BYTES32(nonce)) return error(400, 'Invalid nonce');
    return routes.messages(domain, {
      ...(transactionHash ? { transactionHash } : {}),
      ...(nonce ? { nonce } : {}),
    });
  }
  if (method === 'GET' && version === 'v2' && resource === 'burn' && parts.length === 6) {
    const [, , token, fees, src, dst] = parts;
    if (token !== 'USDC' || fees !== 'fees') return error(404, 'Not found');
    const source = domainParam(src);
    const destination = domainParam(dst);
    if (source === undefined || destination === undefined) return error(400, 'Invalid domain');
    return routes.fees(source, destination, url.searchParams.get('forward') === 'true');
  }
  if (method === 'POST' && version === 'v2' && resource === 'reattest' && parts.length === 3) {
    const nonce = reattestNonce(parts[2] ?? null);
    if (nonce === undefined) return error(400, 'Invalid nonce');
    return routes.reattest(nonce);
  }
  if (method === 'GET' && version === 'v2' && resource === 'publicKeys' && parts.length === 2) {
    return routes.publicKeys();
  }
  if (method === 'GET' && version === 'v1' && resource === 'attestations' && parts.length === 3) {
    const hash = parts[2] ?? null;
    if (!BYTES32(hash)) return error(400, 'Invalid message hash');
    return routes.v1Attestation(hash.toLowerCase());
  }
  return error(404, 'Not found');
};

const send = (res: ServerResponse, response: ApiResponse, headers: Record<string, string> = {}): void => {
  const body = JSON.stringify(response.body);
  res.writeHead(response.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Circle's API over node:http. CORS is open because a browser test points Bridge Kit's fetch here.
 * The order of a request: counted against the rate limit, delayed, failed on demand, then answered.
 */
export const createIrisServer = (
  routes: IrisRoutes,
  modes: ServiceModes,
  onError: (error: unknown) => void,
): Server =>
  createServer((req: IncomingMessage, res: ServerResponse) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    req.resume(); // no route reads a body
    const limited = modes.limited();
    void (async () => {
      if (modes.delayMs > 0) await sleep(modes.delayMs);
      if (limited) {
        return send(res, error(429, 'Too Many Requests'), {
          ...cors,
          'retry-after': String(modes.retryAfterSeconds()),
        });
      }
      if (modes.failStatus !== null) return send(res, error(modes.failStatus, 'Service unavailable'), cors);
      const url = new URL(req.url ?? '/', 'http://localhost');
      send(res, await route(req.method ?? 'GET', url, routes), cors);
    })().catch((caught: unknown) => {
      onError(caught);
      if (!res.headersSent) send(res, error(500, 'Internal Server Error'), cors);
    });
  });

import type {
  CreatedPayment,
  CreateGaslessPaymentInput,
  CreatePublicPaymentInput,
  GaslessQuote,
  MerchantInfo,
  MerchantWallet,
  PaymentStatusView,
  PublicChains,
  PublicCheckoutSession,
  TopUp,
} from '@stablepay/contracts';

/** An answer of the gateway that is not a success, with the first detail's code when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly path?: string,
    /** seconds, from Retry-After (a 429 or 503) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface GatewayClient {
  session(id: string): Promise<PublicCheckoutSession>;
  merchantInfo(id: string): Promise<MerchantInfo>;
  merchantWallet(id: string): Promise<MerchantWallet>;
  chains(): Promise<PublicChains>;
  createPayment(body: CreatePublicPaymentInput): Promise<CreatedPayment>;
  paymentStatus(id: string): Promise<PaymentStatusView>;
  reportTopUp(sessionId: string, txHash: string): Promise<TopUp>;
  gaslessQuote(query: GaslessQuoteRequest): Promise<GaslessQuote>;
  createGasless(body: CreateGaslessPaymentInput): Promise<CreatedPayment>;
}

/** GET /payments/gasless-quote's query: a session fixes the amount, the widget names it. */
export interface GaslessQuoteRequest {
  merchantId: string;
  chainId: number;
  token: string;
  sessionId?: string;
  amount?: string;
  destinationChainId?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const retryAfterSeconds = (res: Response): number | undefined => {
  const value = Number(res.headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Answers of a gateway that is restarting or overloaded, which a read can simply ask again. */
const TRANSIENT = new Set([502, 503, 504]);
/** How often a read is asked again after a network error or a transient answer, and the first wait. */
const READ_RETRIES = 3;
const READ_RETRY_MS = 500;

/**
 * The gateway's public endpoints, and nothing else: the page never holds a credential. A plain 429
 * is waited out (Retry-After) rather than shown, since public routes are rate limited per address
 * and several customers may share one; a 429 with a reason (a merchant's relay budget spent) is the
 * customer's to see. A read (GET) that meets a network error or a 502, 503 or 504 (a gateway
 * restarting during a deployment) is asked again a few times, waiting longer each time, before the
 * page shows that it could not load; a write is never repeated here, since it may have been done.
 */
export const gatewayClient = (baseUrl: string): GatewayClient => {
  const base = baseUrl.replace(/\/$/, '');
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const retryRead = method === 'GET' && attempt < READ_RETRIES;
      const backoff = () => sleep(READ_RETRY_MS * 2 ** attempt);
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        if (!retryRead) throw err;
        await backoff();
        continue;
      }
      if (retryRead && TRANSIENT.has(res.status)) {
        await backoff();
        continue;
      }
      const json = (await res.json().catch(() => undefined)) as
        | { success: boolean; data?: T; error?: string; details?: Array<{ code?: string; path?: string }> }
        | undefined;
      if (res.ok && json?.success) return json.data as T;
      const detail = json?.details?.[0];
      if (res.status === 429 && !detail?.code && attempt < 5) {
        await sleep(Math.min(10, retryAfterSeconds(res) ?? 2) * 1000);
        continue;
      }
      const message = json?.error ?? `HTTP ${res.status}`;
      throw new ApiError(res.status, message, detail?.code, detail?.path, retryAfterSeconds(res));
    }
  };
  const id = encodeURIComponent;
  return {
    session: (sessionId) => request('GET', `/checkout/sessions/${id(sessionId)}/public`),
    merchantInfo: (merchantId) => request('GET', `/merchants/${id(merchantId)}/info`),
    merchantWallet: async (merchantId) =>
      (await request<{ wallet: MerchantWallet }>('GET', `/merchants/${id(merchantId)}/wallet`)).wallet,
    chains: () => request('GET', '/chains'),
    createPayment: (body) => request('POST', '/payments/create-public', body),
    paymentStatus: (paymentId) => request('GET', `/payments/${id(paymentId)}/status`),
    reportTopUp: (sessionId, txHash) =>
      request('POST', `/checkout/sessions/${id(sessionId)}/top-ups`, { txHash }),
    gaslessQuote: (query) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
      return request('GET', `/payments/gasless-quote?${params}`);
    },
    createGasless: (body) => request('POST', '/payments/create-gasless', body),
  };
};

/** Where the gateway is: config.json beside the page, written by the deployment. */
export const loadRuntimeConfig = async (): Promise<{ gatewayUrl: string }> => {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(new URL('config.json', document.baseURI), { cache: 'no-store' });
    if (res.ok) return (await res.json()) as { gatewayUrl: string };
    if (attempt >= 10) throw new ApiError(res.status, 'The checkout page is not configured');
    await sleep(1000);
  }
};

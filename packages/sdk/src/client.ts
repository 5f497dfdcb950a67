import { Transport } from './transport.js';
import {
  BalanceResource,
  BalanceTransactions,
  CheckoutSessions,
  Events,
  Invoices,
  Payments,
  Refunds,
  WebhookEndpoints,
  Withdrawals,
} from './resources.js';
import { webhooks } from './webhooks.js';

export interface StablepayOptions {
  /** `X-API-Key`: `<prefix>_live_<value>` */
  apiKey: string;
  /** The gateway, e.g. `https://pay.example.com` */
  baseUrl: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Further attempts after a network error, a timeout, a 429 or a 5xx; default 2. */
  maxRetries?: number;
  /** Another fetch (a proxy agent, a test double); default the platform's. */
  fetch?: typeof fetch;
}

export const VERSION = '0.1.0';

/** The Stablepay API with an API key. */
export class Stablepay {
  /** Verification of incoming webhooks: needs no client. */
  static readonly webhooks = webhooks;

  readonly payments: Payments;
  readonly checkout: { sessions: CheckoutSessions };
  readonly refunds: Refunds;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly balance: BalanceResource;
  readonly invoices: Invoices;
  readonly withdrawals: Withdrawals;
  readonly balanceTransactions: BalanceTransactions;

  constructor(options: StablepayOptions) {
    if (!options?.apiKey) throw new TypeError('Stablepay: apiKey is required');
    if (!options.baseUrl || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('Stablepay: baseUrl must be an http(s) URL');
    }
    const transport = new Transport({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      fetch: options.fetch ?? ((...args) => globalThis.fetch(...args)),
      userAgent: `stablepay-node/${VERSION}`,
    });
    this.payments = new Payments(transport);
    this.checkout = { sessions: new CheckoutSessions(transport) };
    this.refunds = new Refunds(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.balance = new BalanceResource(transport);
    this.invoices = new Invoices(transport);
    this.withdrawals = new Withdrawals(transport);
    this.balanceTransactions = new BalanceTransactions(transport);
  }
}

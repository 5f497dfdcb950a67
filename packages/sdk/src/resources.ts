import { pager, type Page } from './page.js';
import type { Call, RequestOptions, Transport } from './transport.js';
import type * as T from './types.js';

const at = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));

/** Each resource is a few lines over one route of the gateway's API-key surface. */
abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected call<R>(call: Call, options?: RequestOptions): Promise<R> {
    return this.transport.request<R>(call, options);
  }

  protected paged<Item>(path: string, items: string, query: object | undefined, options?: RequestOptions) {
    return pager<Item, { offset?: number }>(items, { ...query }, (q) =>
      this.call({ method: 'GET', path, query: q }, options),
    );
  }
}

export class Payments extends Resource {
  list(params?: T.PaymentListParams, options?: RequestOptions): Promise<Page<T.PaymentListItem>> {
    return this.paged<T.PaymentListItem>('/payments/api/list', 'payments', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.Payment> {
    return this.call({ method: 'GET', path: at('/payments/api/:id', id) }, options);
  }
}

export class CheckoutSessions extends Resource {
  create(params: T.CheckoutSessionCreateParams, options?: RequestOptions): Promise<T.CreatedCheckoutSession> {
    return this.call({ method: 'POST', path: '/checkout/sessions', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.CheckoutSession> {
    return this.call({ method: 'GET', path: at('/checkout/sessions/:id', id) }, options);
  }

  list(
    params?: T.CheckoutSessionListParams,
    options?: RequestOptions,
  ): Promise<Page<T.CheckoutSessionListItem>> {
    return this.paged<T.CheckoutSessionListItem>('/checkout/sessions', 'sessions', params, options);
  }
}

export class Refunds extends Resource {
  create(params: T.RefundCreateParams, options?: RequestOptions): Promise<T.CreatedRefund> {
    return this.call({ method: 'POST', path: '/refunds/api/create', body: params }, options);
  }

  list(params?: T.RefundListParams, options?: RequestOptions): Promise<Page<T.RefundListItem>> {
    return this.paged<T.RefundListItem>('/refunds/api/list', 'refunds', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.Refund> {
    return this.call({ method: 'GET', path: at('/refunds/api/:id', id) }, options);
  }

  /** Only a `pending` refund can be cancelled (409 otherwise). */
  async cancel(id: string, options?: RequestOptions): Promise<void> {
    await this.call({ method: 'POST', path: at('/refunds/api/:id/cancel', id) }, options);
  }
}

const HOOKS = '/merchant-webhooks/api';

export class WebhookEndpoints extends Resource {
  /** The answer carries the signing secret, shown here and on regenerateSecret only. */
  create(params: T.WebhookEndpointCreateParams, options?: RequestOptions): Promise<T.CreatedWebhookEndpoint> {
    return this.call({ method: 'POST', path: `${HOOKS}/create`, body: params }, options);
  }

  /** Every endpoint (at most 20), oldest first: not paged. */
  list(options?: RequestOptions): Promise<T.WebhookEndpoint[]> {
    return this.call({ method: 'GET', path: `${HOOKS}/list` }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.WebhookEndpoint> {
    return this.call({ method: 'GET', path: at(`${HOOKS}/:id`, id) }, options);
  }

  update(
    id: string,
    params: T.WebhookEndpointUpdateParams,
    options?: RequestOptions,
  ): Promise<T.WebhookEndpoint> {
    return this.call({ method: 'PUT', path: at(`${HOOKS}/:id`, id), body: params }, options);
  }

  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.call({ method: 'DELETE', path: at(`${HOOKS}/:id`, id) }, options);
  }

  /** The old secret stops working at once. */
  regenerateSecret(id: string, options?: RequestOptions): Promise<T.WebhookSecret> {
    return this.call({ method: 'POST', path: at(`${HOOKS}/:id/regenerate-secret`, id) }, options);
  }

  /** Sends a `payment.completed` sample (X-Service-Test: true) and reports how the endpoint answered. */
  test(id: string, options?: RequestOptions): Promise<T.WebhookTestResult> {
    return this.call({ method: 'POST', path: at(`${HOOKS}/:id/test`, id) }, options);
  }

  /** The latest delivery attempts, newest first. */
  async logs(
    id: string,
    params?: T.WebhookLogsParams,
    options?: RequestOptions,
  ): Promise<T.WebhookDelivery[]> {
    const page = await this.call<{ logs: T.WebhookDelivery[] }>(
      { method: 'GET', path: at(`${HOOKS}/:id/logs`, id), query: params },
      options,
    );
    return page.logs;
  }
}

export class Events extends Resource {
  /** The merchant's event log, newest first, with where each event was delivered. */
  list(params?: T.MerchantEventListParams, options?: RequestOptions): Promise<Page<T.MerchantEvent>> {
    return this.paged<T.MerchantEvent>('/events/api/list', 'events', params, options);
  }

  /** The events an endpoint can subscribe to, with descriptions. */
  types(options?: RequestOptions): Promise<T.WebhookEventType[]> {
    return this.call({ method: 'GET', path: `${HOOKS}/events` }, options);
  }
}

export class BalanceResource extends Resource {
  retrieve(options?: RequestOptions): Promise<T.Balance> {
    return this.call({ method: 'GET', path: '/wallets/api/balance' }, options);
  }
}

export class Invoices extends Resource {
  /** Newest first: not paged. */
  list(params?: T.InvoiceListParams, options?: RequestOptions): Promise<T.Invoice[]> {
    return this.call({ method: 'GET', path: '/invoices/api/list', query: params }, options);
  }

  /** The invoice's PDF, as bytes. */
  pdf(id: string, params?: T.InvoicePdfParams, options?: RequestOptions): Promise<Uint8Array> {
    return this.call(
      { method: 'GET', path: at('/invoices/api/:id/pdf', id), query: params, as: 'bytes' },
      options,
    );
  }
}

export class Withdrawals extends Resource {
  create(params: T.WithdrawalCreateParams, options?: RequestOptions): Promise<T.Withdrawal> {
    return this.call({ method: 'POST', path: '/withdrawals/api/create', body: params }, options);
  }

  list(params?: T.WithdrawalListParams, options?: RequestOptions): Promise<Page<T.Withdrawal>> {
    return this.paged<T.Withdrawal>('/withdrawals/api/list', 'withdrawals', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<T.Withdrawal> {
    return this.call({ method: 'GET', path: at('/withdrawals/api/:id', id) }, options);
  }
}

export class BalanceTransactions extends Resource {
  list(
    params?: T.BalanceTransactionListParams,
    options?: RequestOptions,
  ): Promise<Page<T.BalanceTransaction>> {
    return this.paged<T.BalanceTransaction>(
      '/balance-transactions/api/list',
      'balance_transactions',
      params,
      options,
    );
  }
}

import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency } from '../shared/money.js';
import { PageOffset, listPage, pageLimit } from '../shared/paging.js';
import { IsoDateOrDateTime, IsoTimestamp } from '../shared/scalars.js';
import { PaymentListItem } from './views.js';

export const PAYMENT_LIST_DEFAULT_LIMIT = 50;
/** GET /payments (jwt) page size maximum: the spec leaves it open; we chose 500. */
export const PAYMENT_LIST_MAX_LIMIT_JWT = 500;
/** GET /payments/api/list (key): spec maximum. */
export const PAYMENT_LIST_MAX_LIMIT_API = 200;

export const PaymentListStatusFilter = z.enum(['pending', 'completed', 'failed']);
export const PaymentSortBy = z.enum(['created_at', 'amount', 'updated_at', 'status']);
export type PaymentSortBy = z.infer<typeof PaymentSortBy>;
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

const listFilters = {
  status: PaymentListStatusFilter.optional(),
  currency: Currency.optional(),
  /** inclusive lower bound on created_at; a bare date means 00:00:00Z of that day */
  startDate: IsoDateOrDateTime.optional(),
  /** upper bound on created_at; a bare date includes that whole day */
  endDate: IsoDateOrDateTime.optional(),
  /** matches tx_hash, from_address, customer_email, reference */
  search: z.string().trim().min(3).max(255).optional(),
  offset: PageOffset,
  sortBy: PaymentSortBy.default('created_at'),
  sortDirection: SortDirection.default('desc'),
  /** only payments created strictly after this instant (polling) */
  since: IsoTimestamp.optional(),
};

/** GET /payments (jwt) query. */
export const PaymentListQuery = z.object({
  ...listFilters,
  limit: pageLimit({ max: PAYMENT_LIST_MAX_LIMIT_JWT, default: PAYMENT_LIST_DEFAULT_LIMIT }),
});
export type PaymentListQuery = z.infer<typeof PaymentListQuery>;

/** GET /payments/api/list (key) query: same, limit max 200. */
export const ApiPaymentListQuery = z.object({
  ...listFilters,
  limit: pageLimit({ max: PAYMENT_LIST_MAX_LIMIT_API, default: PAYMENT_LIST_DEFAULT_LIMIT }),
});
export type ApiPaymentListQuery = z.infer<typeof ApiPaymentListQuery>;

export const PaymentListPage = listPage('payments', PaymentListItem);
export type PaymentListPage = z.infer<typeof PaymentListPage>;
export const PaymentListResponse = successEnvelope(PaymentListPage);

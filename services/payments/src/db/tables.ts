/** The payments schema's table names, shared by its migrations and repositories. */
export const MERCHANTS = 'merchants';
export const PAYMENTS = 'payments';
export const CHECKOUT_SESSIONS = 'checkout_sessions';
export const FEE_QUOTE_USES = 'fee_quote_uses';
export const PAYMENT_STATUS_CHANGES = 'payment_status_changes';

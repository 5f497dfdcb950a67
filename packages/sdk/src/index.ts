export { Stablepay, VERSION, type StablepayOptions } from './client.js';
export { StablepayError, WebhookVerificationError, type ErrorDetail } from './errors.js';
export { Page, type PageCounts } from './page.js';
export type { RequestOptions } from './transport.js';
export { constructEvent, type ConstructEventOptions, type WebhookHeaders } from './webhooks.js';
export type * from './types.js';
export { Stablepay as default } from './client.js';

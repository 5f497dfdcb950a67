import type { ResponseOf } from '../../../api/operations.js';

export type CheckoutSession = ResponseOf<'getCheckoutSessionDashboard'>;
/** A session of GET /checkout-sessions: the session view plus its link. */
export type ListedSession = ResponseOf<'listCheckoutSessionsDashboard'>['sessions'][number];
export type CreatedSession = ResponseOf<'createCheckoutSessionDashboard'>;

/** The spec's bounds: expiry in seconds and metadata pairs. */
export const EXPIRY_CHOICES = [
  { seconds: 1800, key: 'expiry30m' },
  { seconds: 3600, key: 'expiry1h' },
  { seconds: 6 * 3600, key: 'expiry6h' },
  { seconds: 86400, key: 'expiry24h' },
] as const;
export const METADATA_MAX_PAIRS = 5;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

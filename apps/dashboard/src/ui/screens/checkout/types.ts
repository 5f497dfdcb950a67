export interface CheckoutSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  amount: string | null;
  currency: string;
  return_url: string;
  cancel_url: string | null;
  payment: { id: string; status: string; tx_hash: string; amount: string; is_cross_chain: boolean } | null;
  metadata: Record<string, string>;
  created_at: string;
  expires_at: string;
}

/** A session of GET /checkout-sessions: the session view plus its link. */
export interface ListedSession extends CheckoutSession {
  url: string;
}

export interface CreatedSession {
  id: string;
  url: string;
  expires_at: string;
}

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

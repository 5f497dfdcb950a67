import type { PendingPayment } from './types.js';

const PREFIX = 'stablepay.pending.';

/** A session pays once, so its id is the key; the widget keys by merchant and amount. */
export const pendingKey = (target: { sessionId?: string; merchantId: string }, amount?: string): string =>
  target.sessionId ? `s:${target.sessionId}` : `m:${target.merchantId}:${amount ?? ''}`;

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage blocked (a third-party iframe with strict settings): payments still work, without resume.
    return undefined;
  }
};

export const loadPending = (key: string): PendingPayment | undefined => {
  const text = storage()?.getItem(PREFIX + key);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PendingPayment;
  } catch {
    return undefined;
  }
};

export const savePending = (pending: PendingPayment): void => {
  storage()?.setItem(PREFIX + pending.key, JSON.stringify(pending));
};

export const clearPending = (key: string): void => {
  storage()?.removeItem(PREFIX + key);
};

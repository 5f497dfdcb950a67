export const shortHash = (hash: string): string => `${hash.slice(0, 10)}…${hash.slice(-8)}`;

/**
 * Only http(s) URLs are followed: return and cancel URLs come from the merchant through the API,
 * and a `javascript:` one must never run here.
 */
export const safeUrl = (url: string | null | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
};

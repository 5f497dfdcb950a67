/**
 * A merchant's accent colour: the checkout page's primary button (white text on it) and its links
 * (the colour on white). Both read the same contrast, so one rule decides: a colour is accepted only
 * when white text on it meets WCAG AA for normal text (4.5:1). Kept free of zod so the pages can
 * check a colour with the same rule as the gateway.
 */
export const ACCENT_COLOR_RE = /^#[0-9a-fA-F]{6}$/;

/** WCAG AA for normal text. */
export const ACCENT_MIN_CONTRAST = 4.5;

const channel = (byte: number): number => {
  const c = byte / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of `#rrggbb`. */
export const relativeLuminance = (hex: string): number => {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 0xff) + 0.7152 * channel((n >> 8) & 0xff) + 0.0722 * channel(n & 0xff);
};

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export const contrastRatio = (a: string, b: string): number => {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** Whether `color` is `#rrggbb` and white text on it (and it on white) meets 4.5:1. */
export const accentColorReadable = (color: string): boolean =>
  ACCENT_COLOR_RE.test(color) && contrastRatio(color, '#ffffff') >= ACCENT_MIN_CONTRAST;

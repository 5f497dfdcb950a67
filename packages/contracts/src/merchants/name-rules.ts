/**
 * Characters that reorder the text around them without being seen: the embeddings and overrides
 * U+202A–202E, the isolates U+2066–2069 and the marks U+200E, U+200F and U+061C. A merchant name
 * holding one would read differently to the customer than it was typed (`\u202Egnp.exe Shop` shows
 * as "pohS exe.png"), so it is refused wherever a name is set. Kept free of zod so the dashboard
 * checks a name with the same rule as the gateway.
 */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The longest merchant name. */
export const MERCHANT_NAME_MAX = 100;

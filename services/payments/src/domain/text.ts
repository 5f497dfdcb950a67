import type { ErrorDetail } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, and the driver error would surface as a 500. Every
 * string and object key of a request that reaches the database is checked here first.
 */
const nulDetails = (value: unknown, path: string[], out: ErrorDetail[]): ErrorDetail[] => {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      out.push(fieldDetail(path.join('.'), 'Text must not contain NUL characters'));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulDetails(v, [...path, String(i)], out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000'))
        out.push(fieldDetail([...path, k].join('.'), 'Keys must not contain NUL characters'));
      else nulDetails(v, [...path, k], out);
    }
  }
  return out;
};

export const assertStorableText = (body: unknown): void => {
  const details = nulDetails(body, [], []);
  if (details.length > 0) throw new AppError('validation', 'Body validation failed', details);
};

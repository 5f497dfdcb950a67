import { z } from 'zod';
import { LANGUAGE_CODES } from './languages.js';

/** One of the product's five languages (en, de, fr, es, it), as a field of a body or an event. */
export const LanguageCode = z.enum(LANGUAGE_CODES);
export type LanguageCode = z.infer<typeof LanguageCode>;

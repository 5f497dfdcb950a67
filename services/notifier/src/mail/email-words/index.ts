import type { Language } from '@stablepay/contracts';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import type { EmailWords } from './types.js';

export type { EmailWords } from './types.js';

export const EMAIL_WORDS: Readonly<Record<Language, EmailWords>> = { en, de, fr, es, it };

import { de } from './i18n/de.js';
import { en, type Messages } from './i18n/en.js';

export type { Messages };

/**
 * The dashboard's words. The language is the one the merchant chose (kept in localStorage: a
 * preference, not a secret), else the browser's first supported language, else English.
 */
export const LANGUAGES = { en, de } as const;
export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch' };

export const pickLanguage = (asked: string | null, preferred: readonly string[]): Language => {
  for (const tag of [asked, ...preferred]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (base && base in LANGUAGES) return base as Language;
  }
  return 'en';
};

export type Translate = (key: keyof Messages, vars?: Record<string, string | number>) => string;

export const translator =
  (lang: Language): Translate =>
  (key, vars = {}) =>
    LANGUAGES[lang][key].replace(/\{(\w+)\}/g, (_, name: string) =>
      vars[name] !== undefined ? String(vars[name]) : `{${name}}`,
    );

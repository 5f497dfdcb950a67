import { LANGUAGE_NAMES, LANGUAGES, type Language, type Translate } from '../i18n.js';

export const LanguagePicker = ({
  lang,
  t,
  onChange,
}: {
  lang: Language;
  t: Translate;
  onChange: (lang: string) => void;
}) => (
  <span class="lang">
    <label for="lang">{t('language')}</label>
    <select id="lang" value={lang} onChange={(e) => onChange(e.currentTarget.value)}>
      {LANGUAGES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  </span>
);

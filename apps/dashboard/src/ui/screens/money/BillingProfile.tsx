import { useState } from 'preact/hooks';
import { countryOptions } from '../../countries.js';
import { formatDateTime } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { Alert, LoadView } from '../../common.js';
import { useDashboard } from '../../context.js';
import { TitledForm, useSubmit } from '../../form.js';
import { useLoad } from '../../use-load.js';
import { MoneyNav } from './MoneyNav.js';
import { INVOICE_LANGUAGES, type BillingProfile as Profile } from './types.js';

const FIELDS = [
  'legal_name',
  'address_line1',
  'address_line2',
  'postal_code',
  'city',
  'country',
  'vat_number',
] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED = new Set<Field>(['legal_name', 'address_line1', 'postal_code', 'city', 'country']);
const MAX: Record<Field, number> = {
  legal_name: 200,
  address_line1: 200,
  address_line2: 200,
  postal_code: 20,
  city: 100,
  country: 2,
  vat_number: 30,
};

/** The name, address, VAT number and language printed on invoices; the whole profile is saved at once. */
export const BillingProfile = () => {
  const { session, t } = useDashboard();
  const [profile, reload] = useLoad(() => session.call('getBillingProfile'), []);
  return (
    <>
      <h1>{t('navMoney')}</h1>
      <MoneyNav current="/money/billing" />
      <LoadView loaded={profile} t={t} reload={reload}>
        {(p) => <ProfileForm profile={p} onSaved={reload} />}
      </LoadView>
    </>
  );
};

/** The profile's fields, each with its limit; the country from a list, a hint for the VAT number. */
/** The country from a list named in the reader's language; the stored code is what is sent. */
const CountrySelect = ({
  t,
  lang,
  value,
  onChoose,
}: {
  t: Translate;
  lang: string;
  value: string;
  onChoose: (code: string) => void;
}) => (
  <select
    id="b-country"
    value={value.toUpperCase()}
    autoComplete="country"
    aria-required="true"
    onChange={(e) => onChoose(e.currentTarget.value)}
  >
    <option value="">{t('chooseCountry')}</option>
    {countryOptions(lang).map((c) => (
      <option key={c.code} value={c.code}>
        {c.name}
      </option>
    ))}
  </select>
);

const ProfileFields = ({
  t,
  lang,
  values,
  onValues,
}: {
  t: Translate;
  lang: string;
  values: Record<Field, string>;
  onValues: (v: Record<Field, string>) => void;
}) => (
  <>
    {FIELDS.map((f) => (
      <div class="field" key={f}>
        <label for={`b-${f}`}>
          {t(`billing_${f}`)}
          {!REQUIRED.has(f) && ` ${t('optional')}`}
        </label>
        {f === 'country' ? (
          <CountrySelect
            t={t}
            lang={lang}
            value={values.country}
            onChoose={(country) => onValues({ ...values, country })}
          />
        ) : (
          <input
            id={`b-${f}`}
            maxLength={MAX[f]}
            value={values[f]}
            autoComplete={AUTOCOMPLETE[f]}
            aria-required={REQUIRED.has(f) ? 'true' : undefined}
            aria-describedby={f === 'vat_number' ? `b-${f}-hint` : undefined}
            onInput={(e) => onValues({ ...values, [f]: e.currentTarget.value })}
          />
        )}
        {f === 'vat_number' && (
          <p id={`b-${f}-hint`} class="hint">
            {t('vatHint')}
          </p>
        )}
      </div>
    ))}
  </>
);

const ProfileForm = ({ profile, onSaved }: { profile: Profile; onSaved: () => void }) => {
  const { session, t, lang } = useDashboard();
  const [values, setValues] = useState(() => valuesOf(profile));
  const [language, setLanguage] = useState(profile.language);
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    if ([...REQUIRED].some((f) => !values[f].trim())) return t('billingRequired');
    if (!/^[A-Za-z]{2}$/.test(values.country.trim())) return t('countryInvalid');
    return undefined;
  };
  const save = async () => {
    const saved = await session.call('updateBillingProfile', {
      body: {
        legal_name: values.legal_name.trim(),
        address_line1: values.address_line1.trim(),
        address_line2: values.address_line2.trim() || null,
        postal_code: values.postal_code.trim(),
        city: values.city.trim(),
        country: values.country.trim().toUpperCase(),
        vat_number: values.vat_number.trim() || null,
        language,
      },
    });
    // As stored: the country upper-cased, the VAT number without spaces and dots.
    setValues(valuesOf(saved));
    setDone(true);
    onSaved();
  };

  return (
    <TitledForm
      id="billing"
      title={t('billingTitle')}
      class="card form"
      onSubmit={onSubmit(save, check, () => setDone(false))}
    >
      <p class="muted">{t('billingIntro')}</p>
      <ProfileFields t={t} lang={lang} values={values} onValues={setValues} />
      <div class="field">
        <label for="b-language">{t('invoiceLanguage')}</label>
        <select
          id="b-language"
          value={language}
          onChange={(e) => setLanguage(e.currentTarget.value as typeof language)}
        >
          {INVOICE_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`invoiceLanguage_${l}`)}
            </option>
          ))}
        </select>
      </div>
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{t('billingSaved')}</Alert>}
      {profile.updated_at && (
        <p class="muted small-text">{t('lastSaved', { date: formatDateTime(profile.updated_at, lang) })}</p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? t('saving') : t('saveBilling')}
        </button>
      </div>
    </TitledForm>
  );
};

const valuesOf = (p: Profile): Record<Field, string> =>
  Object.fromEntries(FIELDS.map((f) => [f, p[f] ?? ''])) as Record<Field, string>;

const AUTOCOMPLETE: Record<Field, string> = {
  legal_name: 'organization',
  address_line1: 'address-line1',
  address_line2: 'address-line2',
  postal_code: 'postal-code',
  city: 'address-level2',
  country: 'country',
  vat_number: 'off',
};

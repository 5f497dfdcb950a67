import {
  ACCENT_COLOR_RE,
  ACCENT_MIN_CONTRAST,
  accentColorReadable,
  contrastRatio,
} from '@stablepay/contracts/merchants/accent-color';
import { BIDI_CONTROLS, MERCHANT_NAME_MAX } from '@stablepay/contracts/merchants/name-rules';
import { useState } from 'preact/hooks';
import type { Translate } from '../../../i18n.js';
import { useDashboard } from '../../context.js';
import {
  FieldError,
  FormEnd,
  RadioOption,
  TextField,
  TitledForm,
  describedBy,
  useSubmit,
} from '../../form.js';
import { fieldErrorsOf } from './field-errors.js';
import type { MerchantSettings } from './Settings.js';

const FIELDS = ['name', 'accent_color', 'network_fee_bearer'] as const;
type Field = (typeof FIELDS)[number];
type Bearer = 'customer' | 'merchant';
const STANDARD_ACCENT = '#1d4ed8';

/** What is wrong with a name or a colour, in the reader's words; the gateway checks the same. */
const checkName = (t: Translate, name: string): string | undefined => {
  if (!name.trim()) return t('merchantNameMissing');
  if (BIDI_CONTROLS.test(name)) return t('merchantNameBidi');
  return undefined;
};
const checkAccent = (t: Translate, color: string, lang: string): string | undefined => {
  if (!color) return undefined;
  if (!ACCENT_COLOR_RE.test(color)) return t('accentInvalid');
  const ratio = contrastRatio(color, '#ffffff');
  if (ratio < ACCENT_MIN_CONTRAST)
    return t('accentTooLight', { color, ratio: ratio.toLocaleString(lang, { maximumFractionDigits: 2 }) });
  return undefined;
};

/** The pay button and a link as the checkout page draws them in the chosen colour. */
const AccentPreview = ({ color, t }: { color: string; t: Translate }) => (
  <div class="accent-preview" style={{ '--accent': color }} aria-label={t('previewTitle')} role="group">
    <span class="preview-button">{t('previewPay')}</span>
    <span class="preview-link">{t('previewLink')}</span>
  </div>
);

const AccentField = ({
  value,
  onValue,
  error,
}: {
  value: string;
  onValue: (v: string) => void;
  error?: string;
}) => {
  const { t } = useDashboard();
  const shown = ACCENT_COLOR_RE.test(value) ? value : STANDARD_ACCENT;
  return (
    <div class="field">
      <TextField
        id="settings-accent"
        label={t('accentLabel')}
        value={value}
        onValue={(v) => onValue(v.trim())}
        placeholder={STANDARD_ACCENT}
        maxLength={7}
        autocomplete="off"
        spellcheck={false}
        hint={t('accentHint')}
        error={error}
      />
      <div class="accent-row">
        <input
          type="color"
          aria-label={t('accentPick')}
          value={shown}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
        <button type="button" class="secondary" onClick={() => onValue('')} disabled={!value}>
          {t('accentDefault')}
        </button>
      </div>
      <AccentPreview color={accentColorReadable(value) ? value : STANDARD_ACCENT} t={t} />
    </div>
  );
};

const FeeBearerField = ({
  value,
  onValue,
  error,
}: {
  value: Bearer | null;
  onValue: (v: Bearer) => void;
  error?: string;
}) => {
  const { t } = useDashboard();
  return (
    <fieldset class="field fee-bearer" aria-describedby={describedBy('settings-fee', true, error)}>
      <legend>{t('feeTitle')}</legend>
      <p id="settings-fee-hint" class="hint">
        {t('feeIntro')}
      </p>
      {(['customer', 'merchant'] as const).map((b) => (
        <div key={b} class="fee-choice">
          <RadioOption
            name="network_fee_bearer"
            checked={value === b}
            onChoose={() => onValue(b)}
            describedBy={`settings-fee-${b}-hint`}
          >
            {t(b === 'customer' ? 'feeCustomer' : 'feeMerchant')}
          </RadioOption>
          <p id={`settings-fee-${b}-hint`} class="hint">
            {t(b === 'customer' ? 'feeCustomerHint' : 'feeMerchantHint')}
          </p>
        </div>
      ))}
      {value === null && <p class="muted">{t('feeDefault')}</p>}
      <FieldError id="settings-fee" error={error} />
    </fieldset>
  );
};

/** The name, accent colour and fee bearer, saved together; errors under their fields. */
export const BrandingForm = ({ settings, onSaved }: { settings: MerchantSettings; onSaved: () => void }) => {
  const { session, t, lang } = useDashboard();
  const [name, setName] = useState(settings.name);
  const [accent, setAccent] = useState(settings.accent_color ?? '');
  const [bearer, setBearer] = useState<Bearer | null>(settings.network_fee_bearer);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();
  /** A field's setter that also takes back what was said about its earlier value. */
  const edit =
    <V,>(field: Field, set: (v: V) => void) =>
    (v: V) => {
      set(v);
      setErrors((e) => ({ ...e, [field]: undefined }));
    };

  const save = async () => {
    // Said under the fields, not in a banner: the form's own checks first, then the gateway's.
    const found = { name: checkName(t, name), accent_color: checkAccent(t, accent, lang) };
    setErrors(found);
    if (found.name || found.accent_color) return;
    try {
      await session.call('updateMerchantSettingsDashboard', {
        body: { name: name.trim(), accent_color: accent || null, network_fee_bearer: bearer },
      });
    } catch (err) {
      const byField = fieldErrorsOf(err, FIELDS);
      if (!byField) throw err;
      setErrors(byField);
      return;
    }
    setDone(true);
    onSaved();
  };
  return (
    <TitledForm
      id="branding"
      title={t('brandingTitle')}
      class="card form"
      onSubmit={onSubmit(save, undefined, () => setDone(false))}
    >
      <p class="muted">{t('brandingIntro')}</p>
      <div class="field">
        <TextField
          id="settings-name"
          label={t('merchantNameLabel')}
          value={name}
          onValue={edit('name', setName)}
          maxLength={MERCHANT_NAME_MAX}
          autocomplete="organization"
          aria-required="true"
          hint={t('merchantNameHint')}
          error={errors.name}
        />
      </div>
      <AccentField value={accent} onValue={edit('accent_color', setAccent)} error={errors.accent_color} />
      <FeeBearerField
        value={bearer}
        onValue={edit('network_fee_bearer', setBearer)}
        error={errors.network_fee_bearer}
      />
      <FormEnd error={error} done={done && t('settingsSaved')} busy={busy} label={t('saveSettings')} />
    </TitledForm>
  );
};

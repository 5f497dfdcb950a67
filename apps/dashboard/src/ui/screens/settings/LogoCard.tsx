import { useState } from 'preact/hooks';
import type { Messages } from '../../../i18n.js';
import { useDashboard } from '../../context.js';
import { FieldError, describedBy, useSubmit } from '../../form.js';
import { Alert } from '../../common.js';
import { fieldErrorsOf } from './field-errors.js';
import type { MerchantSettings } from './Settings.js';

const TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 256 * 1024;

/** The gateway's refusals of a logo (by code), in the reader's words. */
const LOGO_REFUSALS: Record<string, keyof Messages> = {
  svg_not_allowed: 'logoWrongType',
  unsupported_image_type: 'logoWrongType',
  image_unreadable: 'logoUnreadable',
  image_dimensions_too_large: 'logoTooManyPixels',
  too_big: 'logoTooLargeNoSize',
  image_too_large: 'logoTooLargeNoSize',
};

/** A chosen file as a data: URL, for its preview; its base64 part is what is uploaded. */
const readAsDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/**
 * The logo: the one customers see now (served by the gateway), a preview of a newly chosen file,
 * and its upload; the gateway checks the bytes again. Problems are said under the file field.
 */
export const LogoCard = ({ settings, onChanged }: { settings: MerchantSettings; onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const [chosen, setChosen] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [done, setDone] = useState<string>();
  const { busy, error, submit } = useSubmit();

  const choose = async (file: File | undefined) => {
    setDone(undefined);
    setChosen(undefined);
    setFieldError(undefined);
    if (!file) return;
    if (!TYPES.includes(file.type)) return setFieldError(t('logoWrongType'));
    if (file.size > MAX_BYTES) return setFieldError(t('logoTooLarge', { size: Math.ceil(file.size / 1024) }));
    setChosen(await readAsDataUrl(file));
  };
  const upload = () =>
    submit(async () => {
      if (!chosen) return setFieldError(t('logoPick'));
      try {
        await session.call('uploadMerchantLogoDashboard', { body: { image: chosen.split(',')[1] ?? '' } });
      } catch (err) {
        const byField = fieldErrorsOf(err, ['image'] as const, (d) => {
          const key = LOGO_REFUSALS[d.code ?? ''];
          return key && t(key);
        });
        if (!byField) throw err;
        return setFieldError(byField.image);
      }
      setChosen(undefined);
      setDone(t('logoSaved'));
      onChanged();
    });
  const remove = () =>
    submit(async () => {
      await session.call('deleteMerchantLogoDashboard');
      setDone(t('logoRemoved'));
      onChanged();
    });
  const current = settings.logo && new URL(settings.logo.url, session.gatewayUrl).href;
  return (
    <section class="card form logo-card" aria-labelledby="logo-title">
      <h2 id="logo-title">{t('logoTitle')}</h2>
      <p class="muted">{t('logoIntro')}</p>
      {!current && <p class="muted">{t('logoNone')}</p>}
      {(current || chosen) && (
        <div class="logo-frames">
          {current && (
            <figure>
              <img
                src={current}
                alt={t('logoAlt', { name: settings.name })}
                class="logo-image"
                data-current-logo
              />
              <figcaption class="hint">{t('logoCurrent')}</figcaption>
            </figure>
          )}
          {chosen && (
            <figure>
              <img src={chosen} alt={t('logoNew')} class="logo-image" data-logo-preview />
              <figcaption class="hint">{t('logoNew')}</figcaption>
            </figure>
          )}
        </div>
      )}
      <div class="field">
        <label for="settings-logo">{t('logoChoose')}</label>
        <input
          id="settings-logo"
          type="file"
          accept={TYPES.join(',')}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={describedBy('settings-logo', false, fieldError)}
          onChange={(e) => void choose(e.currentTarget.files?.[0])}
        />
        <FieldError id="settings-logo" error={fieldError} />
      </div>
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{done}</Alert>}
      <div class="actions">
        <button type="button" disabled={busy || !chosen} onClick={() => void upload()}>
          {busy ? t('logoUploading') : t('logoUpload')}
        </button>
        {settings.logo && (
          <button type="button" class="secondary" disabled={busy} onClick={() => void remove()}>
            {t('logoRemove')}
          </button>
        )}
      </div>
    </section>
  );
};

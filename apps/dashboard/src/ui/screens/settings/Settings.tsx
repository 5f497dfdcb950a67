import type { ResponseOf } from '../../../api/operations.js';
import { LoadView } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import { BrandingForm } from './BrandingForm.js';
import { LogoCard } from './LogoCard.js';

export type MerchantSettings = ResponseOf<'getMerchantSettingsDashboard'>;

/**
 * What customers see of the shop (name, accent colour, logo) and who bears the network fee of a
 * payment made with a signature. A saved name also changes the header, so the account is read again.
 */
export const Settings = () => {
  const { session, t } = useDashboard();
  const [settings, reload] = useLoad(() => session.call('getMerchantSettingsDashboard'), []);
  const saved = () => {
    reload();
    void session.reloadAccount();
  };
  return (
    <>
      <h1>{t('settingsTitle')}</h1>
      <LoadView loaded={settings} t={t} reload={reload}>
        {(s) => (
          <div class="settings">
            <BrandingForm settings={s} onSaved={saved} />
            <LogoCard settings={s} onChanged={reload} />
          </div>
        )}
      </LoadView>
    </>
  );
};

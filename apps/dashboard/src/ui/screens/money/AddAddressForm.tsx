import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { Alert } from '../../common.js';
import { useDashboard } from '../../context.js';
import { ADDRESS } from './address-book.js';
import { stepUpErrorText, useStepUp, type MfaStatus } from './StepUp.js';

/** A new address for the book: a label, the address, and the confirmation that it is the merchant. */
export const AddAddressForm = ({ mfa, onAdded }: { mfa: MfaStatus; onAdded: () => void }) => {
  const { session, t, lang } = useDashboard();
  const stepUp = useStepUp('add-address', mfa);
  const [label, setLabel] = useState('');
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    if (!label.trim()) return setError(t('addressLabelMissing'));
    if (!ADDRESS.test(address.trim())) return setError(t('destinationInvalid'));
    setBusy(true);
    try {
      const body = { label: label.trim(), address: address.trim() };
      const added = await stepUp.run((code) => session.call('addWithdrawalAddress', { body, mfaCode: code }));
      setDone(t('addressAdded', { label: added.label, date: formatDateTime(added.usable_from, lang) }));
      setLabel('');
      setAddress('');
      onAdded();
    } catch (err) {
      setError(stepUpErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card form" onSubmit={submit} noValidate aria-labelledby="add-address-title">
      <h2 id="add-address-title">{t('addAddressTitle')}</h2>
      <p class="muted">{t('addAddressIntro')}</p>
      <div class="field">
        <label for="address-label">{t('addressLabel')}</label>
        <input
          id="address-label"
          class="narrow"
          maxLength={100}
          value={label}
          onInput={(ev) => setLabel(ev.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="address-value">{t('destinationAddress')}</label>
        <input
          id="address-value"
          class="address-input"
          autoComplete="off"
          spellcheck={false}
          placeholder="0x…"
          value={address}
          onInput={(ev) => setAddress(ev.currentTarget.value)}
        />
      </div>
      {stepUp.fields}
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{done}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy || !stepUp.ready}>
          {busy ? t('addingAddress') : t('addAddress')}
        </button>
      </div>
    </form>
  );
};

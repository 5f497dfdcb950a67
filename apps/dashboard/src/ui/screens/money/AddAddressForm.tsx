import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { FormEnd, TextField, useSubmit } from '../../form.js';
import { useDashboard } from '../../context.js';
import { ADDRESS } from './address-book.js';
import { stepUpErrorText, useStepUp, type MfaStatus } from './StepUp.js';

/** A new address for the book: a label, the address, and the confirmation that it is the merchant. */
export const AddAddressForm = ({ mfa, onAdded }: { mfa: MfaStatus; onAdded: () => void }) => {
  const { session, t, lang } = useDashboard();
  const stepUp = useStepUp('add-address', mfa);
  const [label, setLabel] = useState('');
  const [address, setAddress] = useState('');
  const [done, setDone] = useState<string>();
  const { busy, error, onSubmit } = useSubmit(stepUpErrorText);

  const check = () => {
    if (!label.trim()) return t('addressLabelMissing');
    if (!ADDRESS.test(address.trim())) return t('destinationInvalid');
    return undefined;
  };
  const add = async () => {
    const body = { label: label.trim(), address: address.trim() };
    const added = await stepUp.run((code) => session.call('addWithdrawalAddress', { body, mfaCode: code }));
    setDone(t('addressAdded', { label: added.label, date: formatDateTime(added.usable_from, lang) }));
    setLabel('');
    setAddress('');
    onAdded();
  };

  return (
    <form
      class="card form"
      onSubmit={onSubmit(add, check, () => setDone(undefined))}
      noValidate
      aria-labelledby="add-address-title"
    >
      <h2 id="add-address-title">{t('addAddressTitle')}</h2>
      <p class="muted">{t('addAddressIntro')}</p>
      <div class="field">
        <TextField
          id="address-label"
          label={t('addressLabel')}
          class="narrow"
          maxLength={100}
          value={label}
          onValue={setLabel}
        />
      </div>
      <div class="field">
        <TextField
          id="address-value"
          label={t('destinationAddress')}
          class="address-input"
          autoComplete="off"
          spellcheck={false}
          placeholder="0x…"
          value={address}
          onValue={setAddress}
        />
      </div>
      {stepUp.fields}
      <FormEnd
        error={error}
        done={done}
        busy={busy}
        disabled={busy || !stepUp.ready}
        label={busy ? t('addingAddress') : t('addAddress')}
      />
    </form>
  );
};

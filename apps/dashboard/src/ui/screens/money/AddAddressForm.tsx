import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { FormEnd, TextField, TitledForm, useFormFields, useSubmit } from '../../form.js';
import { useDashboard } from '../../context.js';
import { ADDRESS } from './address-book.js';
import { stepUpErrorText, useStepUp, type MfaStatus } from './StepUp.js';

/** A new address for the book: a label, the address, and the confirmation that it is the merchant. */
export const AddAddressForm = ({ mfa, onAdded }: { mfa: MfaStatus; onAdded: () => void }) => {
  const { session, t, lang } = useDashboard();
  const stepUp = useStepUp('add-address', mfa);
  const { values, field, reset } = useFormFields('address', { label: '', value: '' });
  const label = values.label.trim();
  const address = values.value.trim();
  const [done, setDone] = useState<string>();
  const { busy, error, onSubmit } = useSubmit(stepUpErrorText);

  const check = () => {
    if (!label) return t('addressLabelMissing');
    if (!ADDRESS.test(address)) return t('destinationInvalid');
    return undefined;
  };
  const add = async () => {
    const body = { label, address };
    const added = await stepUp.run((code) => session.call('addWithdrawalAddress', { body, mfaCode: code }));
    setDone(t('addressAdded', { label: added.label, date: formatDateTime(added.usable_from, lang) }));
    reset();
    onAdded();
  };

  return (
    <TitledForm
      id="add-address"
      title={t('addAddressTitle')}
      class="card form"
      onSubmit={onSubmit(add, check, () => setDone(undefined))}
    >
      <p class="muted">{t('addAddressIntro')}</p>
      <div class="field">
        <TextField {...field('label')} label={t('addressLabel')} class="narrow" maxLength={100} />
      </div>
      <div class="field">
        <TextField
          {...field('value')}
          label={t('destinationAddress')}
          class="address-input"
          autoComplete="off"
          spellcheck={false}
          placeholder="0x…"
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
    </TitledForm>
  );
};

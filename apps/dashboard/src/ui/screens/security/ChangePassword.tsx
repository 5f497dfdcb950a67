import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import { FormEnd, PasswordField, TitledForm, useFormFields, useSubmit } from '../../form.js';

const MIN = 12;
const MAX = 128;

/** A new password: every other session ends, and this one carries on with the tokens handed back. */
export const ChangePassword = ({ onChanged }: { onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const { values, field, reset } = useFormFields('pw', { current: '', new: '', repeat: '' });
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    if (!values.current) return t('currentPasswordRequired');
    if (values.new.length < MIN || values.new.length > MAX) return t('passwordHint');
    if (values.new !== values.repeat) return t('passwordsDiffer');
    return undefined;
  };
  const change = async () => {
    const pair = await session.call('changePassword', {
      body: { current_password: values.current, new_password: values.new },
    });
    session.replaceTokens(pair);
    reset();
    setDone(true);
    onChanged();
  };

  return (
    <TitledForm
      id="password"
      title={t('changePassword')}
      class="card form"
      onSubmit={onSubmit(change, check, () => setDone(false))}
    >
      <PasswordField {...field('current')} purpose="current" label={t('currentPassword')} />
      <PasswordField
        {...field('new')}
        purpose="new"
        label={t('newPassword')}
        maxLength={MAX}
        hint={`${t('passwordHint')} ${t('passwordChangeEnds')}`}
      />
      <PasswordField {...field('repeat')} purpose="new" label={t('repeatPassword')} maxLength={MAX} />
      <FormEnd error={error} done={done && t('passwordChanged')} busy={busy} label={t('changePassword')} />
    </TitledForm>
  );
};

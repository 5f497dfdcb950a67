import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import { FormEnd, PasswordField, useSubmit } from '../../form.js';

const MIN = 12;
const MAX = 128;

/** A new password: every other session ends, and this one carries on with the tokens handed back. */
export const ChangePassword = ({ onChanged }: { onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    if (!current) return t('currentPasswordRequired');
    if (next.length < MIN || next.length > MAX) return t('passwordHint');
    if (next !== repeat) return t('passwordsDiffer');
    return undefined;
  };
  const change = async () => {
    const pair = await session.call('changePassword', {
      body: { current_password: current, new_password: next },
    });
    session.replaceTokens(pair);
    setCurrent('');
    setNext('');
    setRepeat('');
    setDone(true);
    onChanged();
  };

  return (
    <form
      class="card form"
      onSubmit={onSubmit(change, check, () => setDone(false))}
      noValidate
      aria-labelledby="password-title"
    >
      <h2 id="password-title">{t('changePassword')}</h2>
      <PasswordField
        id="pw-current"
        purpose="current"
        label={t('currentPassword')}
        value={current}
        onValue={setCurrent}
      />
      <PasswordField
        id="pw-new"
        purpose="new"
        label={t('newPassword')}
        value={next}
        maxLength={MAX}
        onValue={setNext}
        hint={`${t('passwordHint')} ${t('passwordChangeEnds')}`}
      />
      <PasswordField
        id="pw-repeat"
        purpose="new"
        label={t('repeatPassword')}
        value={repeat}
        maxLength={MAX}
        onValue={setRepeat}
      />
      <FormEnd error={error} done={done && t('passwordChanged')} busy={busy} label={t('changePassword')} />
    </form>
  );
};

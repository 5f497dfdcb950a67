import { useState } from 'preact/hooks';
import { useDashboard } from '../../context.js';
import { FormEnd, TextField, useSubmit } from '../../form.js';

const MIN = 12;
const MAX = 128;

/** A new password: every other session ends, and this one carries on with the tokens handed back. */
export const ChangePassword = ({ onChanged }: { onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, submit } = useSubmit();

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
      onSubmit={(e) => {
        e.preventDefault();
        setDone(false);
        void submit(change, check);
      }}
      noValidate
      aria-labelledby="password-title"
    >
      <h2 id="password-title">{t('changePassword')}</h2>
      <TextField
        id="pw-current"
        label={t('currentPassword')}
        type="password"
        autocomplete="current-password"
        value={current}
        onValue={setCurrent}
      />
      <TextField
        id="pw-new"
        label={t('newPassword')}
        type="password"
        autocomplete="new-password"
        value={next}
        maxLength={MAX}
        onValue={setNext}
        hint={`${t('passwordHint')} ${t('passwordChangeEnds')}`}
      />
      <TextField
        id="pw-repeat"
        label={t('repeatPassword')}
        type="password"
        autocomplete="new-password"
        value={repeat}
        maxLength={MAX}
        onValue={setRepeat}
      />
      <FormEnd error={error} done={done && t('passwordChanged')} busy={busy} label={t('changePassword')} />
    </form>
  );
};

import { useState } from 'preact/hooks';
import type { Session } from '../../../api/session.js';
import type { Translate } from '../../../i18n.js';
import { Alert, errorText } from '../../common.js';

/**
 * Asks for a new confirmation link. The gateway answers alike for every address, so the page says
 * only that a link is on its way if the address awaits one. Without a known address, asks for it.
 */
export const ResendLink = ({ session, t, email }: { session: Session; t: Translate; email?: string }) => {
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'busy' | 'sent' } | { kind: 'failed'; error: string }>({
    kind: 'idle',
  });
  const send = async (e: Event) => {
    e.preventDefault();
    setState({ kind: 'busy' });
    try {
      await session.open('resendEmailConfirmation', {
        body: { email: (email ?? typed).trim() },
      });
      setState({ kind: 'sent' });
    } catch (err) {
      setState({ kind: 'failed', error: errorText(t, err) });
    }
  };
  return (
    <form class="resend" onSubmit={send} noValidate>
      {email === undefined && (
        <>
          <label for="resend-email">{t('email')}</label>
          <input
            id="resend-email"
            type="email"
            required
            autocomplete="username"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </>
      )}
      <button type="submit" class="secondary" disabled={state.kind === 'busy'}>
        {state.kind === 'busy' ? t('resending') : t('resendLink')}
      </button>
      {state.kind === 'sent' && <Alert kind="ok">{t('resent')}</Alert>}
      {state.kind === 'failed' && <Alert>{state.error}</Alert>}
    </form>
  );
};

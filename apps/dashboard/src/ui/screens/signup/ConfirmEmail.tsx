import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../../api/errors.js';
import type { Session } from '../../../api/session.js';
import type { Translate } from '../../../i18n.js';
import { Alert, errorText } from '../../common.js';
import { href } from '../../router.js';
import { ResendLink } from './ResendLink.js';

type Outcome =
  | { kind: 'working' }
  | { kind: 'confirmed'; email: string }
  | { kind: 'refused'; code: 'confirmation_expired' | 'confirmation_invalid' }
  | { kind: 'failed'; error: string };

/**
 * The page the e-mailed link opens (`#/confirm-email?token=…`), signed in or not: it spends the
 * token once, then says whether the address is confirmed, or why not with a way to get a new link.
 */
export const ConfirmEmail = ({ session, t, token }: { session: Session; t: Translate; token: string }) => {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  useEffect(() => {
    let current = true;
    session
      .open('confirmEmail', { body: { token } })
      .then(async ({ data }) => {
        if (!current) return;
        setOutcome({ kind: 'confirmed', email: data.email });
        // A signed-in tab drops its "confirm your address" banner.
        await session.reloadAccount().catch(() => undefined);
      })
      .catch((err: unknown) => {
        if (!current) return;
        const code = err instanceof ApiError ? err.details[0]?.code : undefined;
        if (code === 'confirmation_expired' || code === 'confirmation_invalid')
          setOutcome({ kind: 'refused', code });
        else setOutcome({ kind: 'failed', error: errorText(t, err) });
      });
    return () => {
      current = false;
    };
  }, [token]);

  const signedIn = session.state.kind === 'signed-in';
  const knownEmail = session.state.kind === 'signed-in' ? session.state.account.user.email : undefined;
  return (
    <section class="narrow" aria-live="polite">
      <h1>{t('confirmTitle')}</h1>
      <div class="card signup-card">
        {outcome.kind === 'working' && <p>{t('confirming')}</p>}
        {outcome.kind === 'confirmed' && (
          <>
            <Alert kind="ok">{t('confirmed', { email: outcome.email })}</Alert>
            <p>
              <a href={href('/')}>{signedIn ? t('continueToDashboard') : t('signIn')}</a>
            </p>
          </>
        )}
        {outcome.kind === 'refused' && (
          <>
            <Alert>{t(outcome.code === 'confirmation_expired' ? 'confirmExpired' : 'confirmInvalid')}</Alert>
            <ResendLink session={session} t={t} email={knownEmail} />
          </>
        )}
        {outcome.kind === 'failed' && <Alert>{outcome.error}</Alert>}
      </div>
    </section>
  );
};

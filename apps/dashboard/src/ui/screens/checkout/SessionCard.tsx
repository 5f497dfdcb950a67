import { useEffect } from 'preact/hooks';
import { formatAmount, formatDateTime, formatMoney } from '../../../format.js';
import { LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { CopyButton } from '../../OnChain.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';

/** A session made here: its link to copy or open, and its state, followed while it is open. */
export const SessionCard = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useLoad(
    () => session.call('getCheckoutSessionDashboard', { params: { id } }),
    [id],
  );
  const open = loaded.state === 'ready' && loaded.data.status === 'open';
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(reload, 3_000);
    return () => clearInterval(timer);
  }, [open, reload]);
  const link = linkOf(id);

  return (
    <section class="card" aria-labelledby={`session-${id}`} data-session-id={id}>
      <LoadView loaded={loaded} t={t} reload={reload}>
        {(s) => (
          <>
            <h2 id={`session-${id}`}>
              {s.amount
                ? t('sessionFor', { amount: formatAmount(s.amount, lang), currency: s.currency })
                : t('sessionOpenAmount', { currency: s.currency })}{' '}
              <StatusBadge status={`session_${s.status}`} t={t} />
            </h2>
            {link && s.status === 'open' && (
              <p class="secret-line">
                <code data-session-url>{link}</code> <CopyButton value={link} label={t('checkoutLink')} />{' '}
                <a href={link} target="_blank" rel="noopener noreferrer">
                  {t('openCheckout')}
                </a>
              </p>
            )}
            <dl class="details">
              <dt>{t('sessionId')}</dt>
              <dd>
                <code>{s.id}</code>
              </dd>
              <dt>{t('expiresAt')}</dt>
              <dd>{formatDateTime(s.expires_at, lang)}</dd>
              <dt>{t('returnUrl')}</dt>
              <dd>{s.return_url}</dd>
              {s.cancel_url && (
                <>
                  <dt>{t('cancelUrl')}</dt>
                  <dd>{s.cancel_url}</dd>
                </>
              )}
              {Object.keys(s.metadata).length > 0 && (
                <>
                  <dt>{t('metadata')}</dt>
                  <dd>
                    {Object.entries(s.metadata).map(([k, v]) => (
                      <div key={k}>
                        <code>{k}</code>: {v}
                      </div>
                    ))}
                  </dd>
                </>
              )}
              {s.payment && (
                <>
                  <dt>{t('sessionPayment')}</dt>
                  <dd>
                    <a href={href(`/payments/${s.payment.id}`)}>
                      {formatMoney(s.payment.amount, s.currency, lang)}
                    </a>{' '}
                    <StatusBadge status={s.payment.status} t={t} />
                  </dd>
                </>
              )}
            </dl>
          </>
        )}
      </LoadView>
    </section>
  );
};

/**
 * Sessions made in this visit, newest first, with their links: kept in memory only, so that they
 * are still listed after the merchant looked at another screen.
 */
const made = new Map<string, string>();
export const rememberSession = (id: string, url: string) => {
  made.set(id, url);
};
export const sessionsMade = (): string[] => [...made.keys()].reverse();
const linkOf = (id: string) => made.get(id);

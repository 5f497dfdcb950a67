import { formatAmount, formatDateTime } from '../../../format.js';
import { LoadView, Pager, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { CopyButton } from '../../OnChain.js';
import { href, navigate, type Route } from '../../router.js';
import { useLoad } from '../../use-load.js';
import type { QueryOf } from '../../../api/operations.js';

const STATUSES = ['open', 'complete', 'expired'] as const;
const PAGE = 25;

/**
 * Every checkout session of the merchant, newest first, by status (kept in the URL), in pages; an
 * open one's link is copied from its row. `version` changes when a session was just made here.
 */
export const SessionList = ({ route, version }: { route: Route; version: number }) => {
  const { session, t, lang } = useDashboard();
  const status = route.query.get('status') ?? '';
  const offset = Number(route.query.get('offset') ?? 0);
  const key = `${route.query.toString()}#${version}`;
  const [page, reload] = useLoad(() => {
    const query = { limit: PAGE, offset, status } as QueryOf<'listCheckoutSessionsDashboard'>;
    return session.call('listCheckoutSessionsDashboard', { query });
  }, [key]);
  const go = (next: string, at = 0) =>
    navigate('/checkout', { status: next || undefined, offset: at ? String(at) : undefined });

  return (
    <section class="card" aria-labelledby="session-list">
      <h2 id="session-list">{t('allCheckoutLinks')}</h2>
      <div class="field inline-field">
        <label for="cs-status">{t('colStatus')}</label>
        <select id="cs-status" value={status} onChange={(e) => go(e.currentTarget.value)}>
          <option value="">{t('any')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status_session_${s}`)}
            </option>
          ))}
        </select>
      </div>
      <LoadView loaded={page} t={t} reload={reload}>
        {(p) =>
          p.sessions.length === 0 ? (
            <p class="muted">{status ? t('noMatchingSessions') : t('noSessionsYet')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="list" data-total={p.total}>
                  <caption class="visually-hidden">{t('allCheckoutLinks')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('colCreated')}</th>
                      <th scope="col" class="num">
                        {t('colAmount')}
                      </th>
                      <th scope="col">{t('colStatus')}</th>
                      <th scope="col">{t('expiresAt')}</th>
                      <th scope="col">{t('checkoutLinkColumn')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.sessions.map((s) => (
                      <tr key={s.id} data-listed-session={s.id}>
                        <td data-label={t('colCreated')}>{formatDateTime(s.created_at, lang)}</td>
                        <td data-label={t('colAmount')} class="num">
                          {s.amount
                            ? `${formatAmount(s.amount, lang)} ${s.currency}`
                            : t('customerChooses', { currency: s.currency })}
                        </td>
                        <td data-label={t('colStatus')}>
                          <StatusBadge status={`session_${s.status}`} t={t} />
                        </td>
                        <td data-label={t('expiresAt')}>
                          <time dateTime={s.expires_at}>{formatDateTime(s.expires_at, lang)}</time>
                        </td>
                        <td data-label={t('checkoutLinkColumn')}>
                          {s.status === 'open' ? (
                            <CopyButton
                              value={s.url}
                              label={t('checkoutLinkCreated', { date: formatDateTime(s.created_at, lang) })}
                            />
                          ) : s.payment ? (
                            <a href={href(`/payments/${s.payment.id}`)}>{t('viewPayment')}</a>
                          ) : (
                            <span class="muted">—</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                t={t}
                offset={p.offset}
                shown={p.sessions.length}
                total={p.total}
                pageSize={PAGE}
                onOffset={(o) => go(status, o)}
              />
            </>
          )
        }
      </LoadView>
    </section>
  );
};

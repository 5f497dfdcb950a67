import { formatDateTime, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { Clip, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { CopyButton } from '../../OnChain.js';
import { href, navigate, type Route } from '../../router.js';
import { ChoiceField } from '../../filters.js';
import { DataTable, PagedList, pagingOf, type Column } from '../../list.js';
import { useLoad } from '../../use-load.js';
import type { ListedSession } from './types.js';
import type { QueryOf } from '../../../api/operations.js';

const STATUSES = ['open', 'complete', 'expired'] as const;
const PAGE = 25;

/** An open session's link to copy, else the payment that completed it. */
const LinkCell = ({ s, t, lang }: { s: ListedSession; t: Translate; lang: string }) => {
  if (s.status === 'open')
    return (
      <CopyButton
        value={s.url}
        label={t('checkoutLinkCreated', { date: formatDateTime(s.created_at, lang) })}
      />
    );
  if (s.payment) return <a href={href(`/payments/${s.payment.id}`)}>{t('viewPayment')}</a>;
  return <span class="muted">—</span>;
};

const columns = (t: Translate, lang: string): Column<ListedSession>[] => [
  { label: t('colCreated'), cell: (s) => formatDateTime(s.created_at, lang) },
  {
    label: t('colAmount'),
    num: true,
    cell: (s) =>
      s.amount ? formatMoney(s.amount, s.currency, lang) : t('customerChooses', { currency: s.currency }),
  },
  { label: t('colStatus'), cell: (s) => <StatusBadge status={`session_${s.status}`} t={t} /> },
  {
    label: t('expiresAt'),
    cell: (s) => <time dateTime={s.expires_at}>{formatDateTime(s.expires_at, lang)}</time>,
  },
  {
    label: t('metadata'),
    cell: (s) => (
      <Clip
        value={Object.entries(s.metadata)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')}
      />
    ),
  },
  { label: t('checkoutLinkColumn'), cell: (s) => <LinkCell s={s} t={t} lang={lang} /> },
];

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
      <ChoiceField
        id="cs-status"
        label={t('colStatus')}
        value={status}
        options={STATUSES.map((s) => ({ value: s, label: t(`status_session_${s}`) }))}
        onChoose={(next) => go(next)}
        inline
      />
      <PagedList
        loaded={page}
        reload={reload}
        paging={(p) => pagingOf(p, p.sessions)}
        onOffset={(o) => go(status, o)}
        empty={<p class="muted">{status ? t('noMatchingSessions') : t('noSessionsYet')}</p>}
      >
        {(p) => (
          <DataTable
            caption={t('allCheckoutLinks')}
            columns={columns(t, lang)}
            rows={p.sessions}
            rowKey={(s) => s.id}
            rowProps={(s) => ({ 'data-listed-session': s.id })}
            total={p.total}
          />
        )}
      </PagedList>
    </section>
  );
};

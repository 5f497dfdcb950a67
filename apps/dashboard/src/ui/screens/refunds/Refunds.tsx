import type { QueryOf } from '../../../api/operations.js';
import { formatDateTime, shortHex, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { CURRENCY_OPTIONS, ChoiceField, FilterForm, useDraft } from '../../filters.js';
import { DataTable, PagedList, pagingOf, type Column } from '../../list.js';
import { href, navigate, type Route } from '../../router.js';
import { useLoad } from '../../use-load.js';
import type { RefundListItem } from '../payments/PaymentRefunds.js';

const STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
const PAGE = 25;

const columns = (t: Translate, lang: string): Column<RefundListItem>[] => [
  {
    label: t('colDate'),
    cell: (r) => <a href={href(`/refunds/${r.id}`)}>{formatDateTime(r.created_at, lang)}</a>,
  },
  { label: t('colAmount'), num: true, cell: (r) => formatMoney(r.amount, r.currency, lang) },
  { label: t('colStatus'), cell: (r) => <StatusBadge status={r.status} t={t} /> },
  { label: t('reason'), cell: (r) => t(`reason_${r.reason}`) },
  {
    label: t('refundTo'),
    cell: (r) => <code title={r.destination_address}>{shortHex(r.destination_address)}</code>,
  },
];

/** Every refund, newest first, filtered by status, currency and search (kept in the URL), in pages. */
export const Refunds = ({ route }: { route: Route }) => {
  const { session, t, lang } = useDashboard();
  const applied = {
    status: route.query.get('status') ?? '',
    currency: route.query.get('currency') ?? '',
    search: route.query.get('search') ?? '',
  };
  const offset = Number(route.query.get('offset') ?? 0);
  const key = route.query.toString();
  const [draft, setDraft] = useDraft(applied, key);
  const [page, reload] = useLoad(() => {
    const query = { ...applied, limit: PAGE, offset } as QueryOf<'listRefundsDashboard'>;
    return session.call('listRefundsDashboard', { query });
  }, [key]);
  const go = (filters: Record<string, string>, at = 0) =>
    navigate('/refunds', { ...filters, offset: at ? String(at) : undefined });

  return (
    <>
      <h1>{t('refundsTitle')}</h1>
      <FilterForm onApply={() => go(draft)} onClear={() => go({})}>
        <div class="field">
          <label for="r-search">{t('search')}</label>
          <input
            id="r-search"
            value={draft.search}
            onInput={(e) => setDraft({ ...draft, search: e.currentTarget.value })}
            aria-describedby="r-search-hint"
          />
          <p id="r-search-hint" class="hint">
            {t('refundSearchHint')}
          </p>
        </div>
        <ChoiceField
          id="r-status"
          label={t('colStatus')}
          value={draft.status}
          options={STATUSES.map((s) => ({ value: s, label: t(`status_${s}`) }))}
          onChoose={(status) => setDraft({ ...draft, status })}
        />
        <ChoiceField
          id="r-currency"
          label={t('currency')}
          value={draft.currency}
          options={CURRENCY_OPTIONS}
          onChoose={(currency) => setDraft({ ...draft, currency })}
        />
      </FilterForm>
      <section class="card" aria-labelledby="refund-results">
        <h2 id="refund-results">{t('results')}</h2>
        <PagedList
          loaded={page}
          reload={reload}
          paging={(p) => pagingOf(p, p.refunds)}
          onOffset={(o) => go(applied, o)}
          empty={<p class="muted">{t('noMatchingRefunds')}</p>}
        >
          {(p) => (
            <DataTable
              caption={t('refundsTitle')}
              columns={columns(t, lang)}
              rows={p.refunds}
              rowKey={(r) => r.id}
              rowProps={(r) => ({ 'data-refund-id': r.id })}
              total={p.total}
            />
          )}
        </PagedList>
      </section>
    </>
  );
};

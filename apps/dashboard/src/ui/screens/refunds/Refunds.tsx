import { useEffect, useState } from 'preact/hooks';
import { formatAmount, formatDateTime, shortHex } from '../../../format.js';
import { LoadView, Pager, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href, navigate, type Route } from '../../router.js';
import { useLoad } from '../../use-load.js';
import type { QueryOf } from '../../../api/operations.js';

const STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
const PAGE = 25;

/** Every refund, newest first, filtered by status, currency and search (kept in the URL), in pages. */
export const Refunds = ({ route }: { route: Route }) => {
  const { session, t, lang } = useDashboard();
  const applied = {
    status: route.query.get('status') ?? '',
    currency: route.query.get('currency') ?? '',
    search: route.query.get('search') ?? '',
  };
  const offset = Number(route.query.get('offset') ?? 0);
  const [draft, setDraft] = useState(applied);
  const key = route.query.toString();
  useEffect(() => setDraft(applied), [key]);
  const [page, reload] = useLoad(() => {
    const query = { ...applied, limit: PAGE, offset } as QueryOf<'listRefundsDashboard'>;
    return session.call('listRefundsDashboard', { query });
  }, [key]);
  const go = (filters: Record<string, string>, at = 0) =>
    navigate('/refunds', { ...filters, offset: at ? String(at) : undefined });

  return (
    <>
      <h1>{t('refundsTitle')}</h1>
      <form
        class="card filters"
        aria-label={t('filters')}
        onSubmit={(e) => {
          e.preventDefault();
          go(draft);
        }}
      >
        <div class="filter-grid">
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
          <div class="field">
            <label for="r-status">{t('colStatus')}</label>
            <select
              id="r-status"
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}
            >
              <option value="">{t('any')}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status_${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="r-currency">{t('currency')}</label>
            <select
              id="r-currency"
              value={draft.currency}
              onChange={(e) => setDraft({ ...draft, currency: e.currentTarget.value })}
            >
              <option value="">{t('any')}</option>
              <option value="USDC">USDC</option>
              <option value="EURC">EURC</option>
            </select>
          </div>
        </div>
        <div class="actions">
          <button type="submit">{t('applyFilters')}</button>
          <button type="button" class="secondary" onClick={() => go({})}>
            {t('clearFilters')}
          </button>
        </div>
      </form>
      <section class="card" aria-labelledby="refund-results">
        <h2 id="refund-results">{t('results')}</h2>
        <LoadView loaded={page} t={t} reload={reload}>
          {(p) =>
            p.refunds.length === 0 ? (
              <p class="muted">{t('noMatchingRefunds')}</p>
            ) : (
              <>
                <div class="table-wrap">
                  <table class="list" data-total={p.total}>
                    <caption class="visually-hidden">{t('refundsTitle')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('colDate')}</th>
                        <th scope="col" class="num">
                          {t('colAmount')}
                        </th>
                        <th scope="col">{t('colStatus')}</th>
                        <th scope="col">{t('reason')}</th>
                        <th scope="col">{t('refundTo')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.refunds.map((r) => (
                        <tr key={r.id} data-refund-id={r.id}>
                          <td data-label={t('colDate')}>
                            <a href={href(`/refunds/${r.id}`)}>{formatDateTime(r.created_at, lang)}</a>
                          </td>
                          <td data-label={t('colAmount')} class="num">
                            {formatAmount(r.amount, lang)} {r.currency}
                          </td>
                          <td data-label={t('colStatus')}>
                            <StatusBadge status={r.status} t={t} />
                          </td>
                          <td data-label={t('reason')}>{t(`reason_${r.reason}` as 'reason_other')}</td>
                          <td data-label={t('refundTo')}>
                            <code title={r.destination_address}>{shortHex(r.destination_address)}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <Pager
                  t={t}
                  offset={p.offset}
                  shown={p.refunds.length}
                  total={p.total}
                  pageSize={PAGE}
                  onOffset={(o) => go(applied, o)}
                />
              </>
            )
          }
        </LoadView>
      </section>
    </>
  );
};

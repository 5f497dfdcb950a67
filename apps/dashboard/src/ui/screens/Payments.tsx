import { useEffect, useRef, useState } from 'preact/hooks';
import { toCsv, saveFile } from '../../csv.js';
import { Alert, LoadView, Pager, errorText } from '../common.js';
import { useDashboard } from '../context.js';
import { navigate, type Route } from '../router.js';
import { useLoad } from '../use-load.js';
import { PaymentsTable, type PaymentListItem } from './payments-table.js';
import type { QueryOf } from '../../api/operations.js';

const FILTERS = [
  'status',
  'currency',
  'startDate',
  'endDate',
  'search',
  'since',
  'sortBy',
  'sortDirection',
] as const;
type Filters = Partial<Record<(typeof FILTERS)[number] | 'limit' | 'offset', string>>;
const PAGE_SIZES = ['25', '50', '100'];
/** The largest page GET /payments serves: the CSV export reads the filtered list in pages of it. */
const EXPORT_PAGE = 500;
const CSV_COLUMNS = [
  'id',
  'created_at',
  'amount',
  'currency',
  'status',
  'customer_email',
  'reference',
  'source_chain',
  'is_cross_chain',
  'tx_hash',
  'from_address',
  'to_address',
  'metadata',
] as const;

/** The URL's filters, as the gateway is asked for them (it checks each one). */
const paymentsQuery = (filters: Filters) => filters as QueryOf<'listPayments'>;

const queryOf = (filters: Filters): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
  return q.toString();
};

/** The query in one order, so that two spellings of the same filters compare equal. */
const sortedQuery = (filters: Filters): string => {
  const q = new URLSearchParams(queryOf(filters));
  q.sort();
  return q.toString();
};

/** `datetime-local` (the reader's time zone) to an ISO instant, and back. */
const toIso = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);
const toLocal = (iso: string | undefined): string => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Every payment filter, search, sort and `since` of GET /payments, kept in the URL; pages; CSV export. */
export const Payments = ({ route }: { route: Route }) => {
  const { session, t, lang } = useDashboard();
  const applied: Filters = Object.fromEntries(
    [...FILTERS, 'limit', 'offset'].map((k) => [k, route.query.get(k) ?? undefined]),
  );
  const limit = Number(applied.limit ?? 50);
  const offset = Number(applied.offset ?? 0);
  const [draft, setDraft] = useState<Filters>(applied);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string>();
  const key = queryOf(applied);
  // The form shows what the URL applies, also after a link or the browser's back button changed it.
  // A navigation this screen made itself leaves the form alone: what the merchant typed since
  // (right after "Clear filters", before the URL changed) is kept.
  const ownNavigation = useRef<string>();
  useEffect(() => {
    if (ownNavigation.current === sortedQuery(applied)) {
      ownNavigation.current = undefined;
      return;
    }
    setDraft(applied);
  }, [key]);
  const [page, reload] = useLoad(
    () => session.call('listPayments', { query: paymentsQuery({ ...applied, limit: String(limit) }) }),
    [key],
  );

  const go = (next: Filters) => {
    ownNavigation.current = sortedQuery(next);
    navigate('/payments', next as Record<string, string | undefined>);
  };
  const field = (name: keyof Filters) => ({
    id: `f-${name}`,
    name,
    value: draft[name] ?? '',
    onInput: (e: Event) =>
      setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value || undefined }),
  });

  const apply = (e: Event) => {
    e.preventDefault();
    go({ ...draft, offset: undefined, limit: applied.limit });
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      const rows: PaymentListItem[] = [];
      for (let at = 0; ; at += EXPORT_PAGE) {
        const filters = { ...applied, limit: String(EXPORT_PAGE), offset: String(at) };
        const next = await session.call('listPayments', { query: paymentsQuery(filters) });
        rows.push(...next.payments);
        if (next.payments.length < EXPORT_PAGE || rows.length >= next.total) break;
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      saveFile(`payments-${stamp}.csv`, 'text/csv;charset=utf-8', toCsv(CSV_COLUMNS, rows));
    } catch (err) {
      setExportError(errorText(t, err));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <h1>{t('paymentsTitle')}</h1>
      <form class="card filters" onSubmit={apply} aria-label={t('filters')}>
        <div class="filter-grid">
          <div class="field">
            <label for="f-search">{t('search')}</label>
            <input {...field('search')} type="search" minLength={3} aria-describedby="search-hint" />
            <span id="search-hint" class="hint">
              {t('searchHint')}
            </span>
          </div>
          <div class="field">
            <label for="f-status">{t('colStatus')}</label>
            <select
              {...field('status')}
              onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value || undefined })}
            >
              <option value="">{t('any')}</option>
              {(['pending', 'completed', 'failed'] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`status_${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="f-currency">{t('currency')}</label>
            <select
              {...field('currency')}
              onChange={(e) => setDraft({ ...draft, currency: e.currentTarget.value || undefined })}
            >
              <option value="">{t('any')}</option>
              <option value="USDC">USDC</option>
              <option value="EURC">EURC</option>
            </select>
          </div>
          <div class="field">
            <label for="f-startDate">{t('fromDate')}</label>
            <input {...field('startDate')} type="date" />
          </div>
          <div class="field">
            <label for="f-endDate">{t('toDate')}</label>
            <input {...field('endDate')} type="date" />
          </div>
          <div class="field">
            <label for="f-since">{t('since')}</label>
            <input
              id="f-since"
              name="since"
              type="datetime-local"
              value={toLocal(draft.since)}
              onInput={(e) => setDraft({ ...draft, since: toIso(e.currentTarget.value) })}
              aria-describedby="since-hint"
            />
            <span id="since-hint" class="hint">
              {t('sinceHint')}
            </span>
          </div>
          <div class="field">
            <label for="f-sortBy">{t('sortBy')}</label>
            <select
              {...field('sortBy')}
              value={draft.sortBy ?? 'created_at'}
              onChange={(e) => setDraft({ ...draft, sortBy: e.currentTarget.value })}
            >
              <option value="created_at">{t('colDate')}</option>
              <option value="amount">{t('colAmount')}</option>
              <option value="status">{t('colStatus')}</option>
              <option value="updated_at">{t('lastUpdate')}</option>
            </select>
          </div>
          <div class="field">
            <label for="f-sortDirection">{t('sortDirection')}</label>
            <select
              {...field('sortDirection')}
              value={draft.sortDirection ?? 'desc'}
              onChange={(e) => setDraft({ ...draft, sortDirection: e.currentTarget.value })}
            >
              <option value="desc">{t('descending')}</option>
              <option value="asc">{t('ascending')}</option>
            </select>
          </div>
        </div>
        <div class="actions">
          <button type="submit">{t('applyFilters')}</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft({});
              go({ limit: applied.limit });
            }}
          >
            {t('clearFilters')}
          </button>
          <button type="button" class="secondary" onClick={() => void exportCsv()} disabled={exporting}>
            {exporting ? t('exporting') : t('exportCsv')}
          </button>
        </div>
        {exportError && <Alert>{exportError}</Alert>}
      </form>
      <section class="card" aria-labelledby="results-title">
        <h2 id="results-title" class="visually-hidden">
          {t('results')}
        </h2>
        <LoadView loaded={page} t={t} reload={reload}>
          {(p) => (
            <>
              <p class="muted" role="status" data-total={p.total}>
                {p.total === 0
                  ? t('noMatchingPayments')
                  : t('showing', {
                      from: (p.offset + 1).toLocaleString(lang),
                      to: (p.offset + p.payments.length).toLocaleString(lang),
                      total: p.total.toLocaleString(lang),
                    })}
              </p>
              {p.payments.length > 0 && <PaymentsTable payments={p.payments} caption={t('paymentsTitle')} />}
              <Pager
                t={t}
                offset={offset}
                shown={p.payments.length}
                total={p.total}
                pageSize={limit}
                counted={false}
                onOffset={(o) => go({ ...applied, offset: String(o) })}
              >
                <label for="page-size">{t('pageSize')}</label>
                <select
                  id="page-size"
                  value={String(limit)}
                  onChange={(e) => go({ ...applied, limit: e.currentTarget.value, offset: undefined })}
                >
                  {[...new Set([...PAGE_SIZES, String(limit)])].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </Pager>
            </>
          )}
        </LoadView>
      </section>
    </>
  );
};

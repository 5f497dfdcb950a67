import { useEffect, useRef, useState } from 'preact/hooks';
import { toCsv, saveFile } from '../../../csv.js';
import type { Session } from '../../../api/session.js';
import type { Translate } from '../../../i18n.js';
import { Alert, LoadView, Pager } from '../../common.js';
import { useSubmit } from '../../form.js';
import { useDashboard } from '../../context.js';
import { CURRENCY_OPTIONS, ChoiceField, DateRangeFields, FilterForm, filterBindings } from '../../filters.js';
import { navigate, type Route } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { PaymentsTable, type PaymentListItem } from './payments-table.js';
import type { QueryOf } from '../../../api/operations.js';

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

/** Every page of the filtered list, read in the largest pages the gateway serves, as one CSV file. */
const exportPayments = async (session: Session, applied: Filters): Promise<void> => {
  const rows: PaymentListItem[] = [];
  for (let at = 0; ; at += EXPORT_PAGE) {
    const filters = { ...applied, limit: String(EXPORT_PAGE), offset: String(at) };
    const next = await session.call('listPayments', { query: paymentsQuery(filters) });
    rows.push(...next.payments);
    if (next.payments.length < EXPORT_PAGE || rows.length >= next.total) break;
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  saveFile(`payments-${stamp}.csv`, 'text/csv;charset=utf-8', toCsv(CSV_COLUMNS, rows));
};

/** The filter fields; `draft` is what the form shows until it is applied. */
const PaymentFilterFields = ({
  t,
  draft,
  setDraft,
}: {
  t: Translate;
  draft: Filters;
  setDraft: (next: Filters) => void;
}) => {
  const { field, choice } = filterBindings('f', draft, setDraft);
  return (
    <>
      <div class="field">
        <label for="f-search">{t('search')}</label>
        <input {...field('search')} type="search" minLength={3} aria-describedby="search-hint" />
        <span id="search-hint" class="hint">
          {t('searchHint')}
        </span>
      </div>
      <ChoiceField
        {...choice('status')}
        label={t('colStatus')}
        options={(['pending', 'completed', 'failed'] as const).map((s) => ({
          value: s,
          label: t(`status_${s}`),
        }))}
      />
      <ChoiceField {...choice('currency')} label={t('currency')} options={CURRENCY_OPTIONS} />
      <DateRangeFields field={field} />
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
    </>
  );
};

/** One page of the list: how many match, the rows, and the pager with the page size. */
const PaymentResults = ({
  t,
  lang,
  p,
  limit,
  onPage,
}: {
  t: Translate;
  lang: string;
  p: { payments: PaymentListItem[]; total: number; offset: number };
  limit: number;
  onPage: (page: Filters) => void;
}) => (
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
      offset={p.offset}
      shown={p.payments.length}
      total={p.total}
      pageSize={limit}
      counted={false}
      onOffset={(o) => onPage({ offset: String(o) })}
    >
      <label for="page-size">{t('pageSize')}</label>
      <select
        id="page-size"
        value={String(limit)}
        onChange={(e) => onPage({ limit: e.currentTarget.value, offset: undefined })}
      >
        {[...new Set([...PAGE_SIZES, String(limit)])].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </Pager>
  </>
);

/**
 * The filters the URL applies, and the form's draft of them. The form shows what the URL applies,
 * also after a link or the browser's back button changed it. A navigation this screen made itself
 * leaves the form alone: what the merchant typed since (right after "Clear filters", before the URL
 * changed) is kept.
 */
const usePaymentFilters = (route: Route) => {
  const applied: Filters = Object.fromEntries(
    [...FILTERS, 'limit', 'offset'].map((k) => [k, route.query.get(k) ?? undefined]),
  );
  const [draft, setDraft] = useState<Filters>(applied);
  const key = queryOf(applied);
  const ownNavigation = useRef<string>();
  useEffect(() => {
    if (ownNavigation.current === sortedQuery(applied)) {
      ownNavigation.current = undefined;
      return;
    }
    setDraft(applied);
  }, [key]);
  const go = (next: Filters) => {
    ownNavigation.current = sortedQuery(next);
    navigate('/payments', next as Record<string, string | undefined>);
  };
  return { applied, key, draft, setDraft, go };
};

/** Every payment filter, search, sort and `since` of GET /payments, kept in the URL; pages; CSV export. */
export const Payments = ({ route }: { route: Route }) => {
  const { session, t, lang } = useDashboard();
  const { applied, key, draft, setDraft, go } = usePaymentFilters(route);
  const limit = Number(applied.limit ?? 50);
  const exporting = useSubmit();
  const [page, reload] = useLoad(
    () => session.call('listPayments', { query: paymentsQuery({ ...applied, limit: String(limit) }) }),
    [key],
  );

  return (
    <>
      <h1>{t('paymentsTitle')}</h1>
      <FilterForm
        onApply={() => go({ ...draft, offset: undefined, limit: applied.limit })}
        onClear={() => {
          setDraft({});
          go({ limit: applied.limit });
        }}
        actions={
          <button
            type="button"
            class="secondary"
            onClick={() => void exporting.submit(() => exportPayments(session, applied))}
            disabled={exporting.busy}
          >
            {exporting.busy ? t('exporting') : t('exportCsv')}
          </button>
        }
        after={exporting.error && <Alert>{exporting.error}</Alert>}
      >
        <PaymentFilterFields t={t} draft={draft} setDraft={setDraft} />
      </FilterForm>
      <section class="card" aria-labelledby="results-title">
        <h2 id="results-title" class="visually-hidden">
          {t('results')}
        </h2>
        <LoadView loaded={page} t={t} reload={reload}>
          {(p) => (
            <PaymentResults
              t={t}
              lang={lang}
              p={p}
              limit={limit}
              onPage={(next) => go({ ...applied, ...next })}
            />
          )}
        </LoadView>
      </section>
    </>
  );
};

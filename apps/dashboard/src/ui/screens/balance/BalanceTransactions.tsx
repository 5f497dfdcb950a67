import { saveFile } from '../../../csv.js';
import { Alert } from '../../common.js';
import { useSubmit } from '../../form.js';
import { loadChains } from '../../chains.js';
import { useDashboard } from '../../context.js';
import type { PublicChain } from '../../explorer.js';
import { navigate, type Route } from '../../router.js';
import {
  CURRENCY_OPTIONS,
  ChoiceField,
  DateRangeFields,
  FilterForm,
  filterBindings,
  useDraft,
} from '../../filters.js';
import { PagedList, pagingOf } from '../../list.js';
import { useLoad } from '../../use-load.js';
import { BalanceTable } from './BalanceTable.js';
import { BALANCE_TRANSACTION_TYPES, TYPE_LABELS } from './types.js';
import type { QueryOf } from '../../../api/operations.js';

const FILTERS = ['type', 'currency', 'startDate', 'endDate'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;
const PAGE = 25;

/** The URL's filters, as the gateway is asked for them (it checks each one). */
const ledgerQuery = (filters: Filters) => filters as QueryOf<'listBalanceTransactions'>;

/**
 * The wallet's ledger, newest first, filtered by type, currency and dates (kept in the URL), in
 * pages; the CSV export of the same filters is the gateway's own, fetched with the bearer token.
 */
export const BalanceTransactions = ({ route }: { route: Route }) => {
  const { session, t } = useDashboard();
  const applied: Filters = Object.fromEntries(FILTERS.map((k) => [k, route.query.get(k) ?? undefined]));
  const offset = Number(route.query.get('offset') ?? 0);
  const download = useSubmit();
  const key = route.query.toString();
  // The form shows what the URL applies, also after the browser's back button changed it.
  const [draft, setDraft] = useDraft<Filters>(applied, key);
  const [page, reload] = useLoad(async () => {
    const query = { ...ledgerQuery(applied), limit: PAGE, offset };
    const [list, chains] = await Promise.all([
      session.call('listBalanceTransactions', { query }),
      loadChains(session).catch(() => [] as PublicChain[]),
    ]);
    return { list, chains };
  }, [key]);
  const go = (filters: Filters, at = 0) =>
    navigate('/balance', { ...filters, offset: at ? String(at) : undefined });
  const { field, choice } = filterBindings('bt', draft, setDraft);

  const downloadCsv = async () => {
    const blob = await session.download('listBalanceTransactions', {
      query: { ...ledgerQuery(applied), format: 'csv' },
    });
    const day = new Date().toISOString().slice(0, 10);
    saveFile(`balance-transactions-${day}.csv`, 'text/csv;charset=utf-8', blob);
  };

  return (
    <>
      <h1>{t('btTitle')}</h1>
      <p class="muted">{t('btIntro')}</p>
      <FilterForm
        onApply={() => go(draft)}
        onClear={() => go({})}
        actions={
          <button
            type="button"
            class="secondary"
            onClick={() => void download.submit(downloadCsv)}
            disabled={download.busy}
          >
            {download.busy ? t('downloading') : t('downloadCsv')}
          </button>
        }
        after={download.error && <Alert>{download.error}</Alert>}
      >
        <ChoiceField
          {...choice('type')}
          label={t('btType')}
          options={BALANCE_TRANSACTION_TYPES.map((type) => ({ value: type, label: t(TYPE_LABELS[type]) }))}
        />
        <ChoiceField {...choice('currency')} label={t('currency')} options={CURRENCY_OPTIONS} />
        <DateRangeFields field={field} />
      </FilterForm>
      <section class="card" aria-labelledby="bt-results">
        <h2 id="bt-results">{t('results')}</h2>
        <PagedList
          loaded={page}
          reload={reload}
          paging={({ list }) => pagingOf(list, list.balance_transactions)}
          onOffset={(o) => go(applied, o)}
          empty={
            <p class="muted" data-total={0}>
              {t('btNone')}
            </p>
          }
        >
          {({ list, chains }) => <BalanceTable rows={list.balance_transactions} chains={chains} />}
        </PagedList>
      </section>
    </>
  );
};

import { LoadView } from '../../common.js';
import { useDashboard } from '../../context.js';
import { navigate, type Route } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { InvoiceItem } from './InvoiceItem.js';
import { MoneyNav } from './MoneyNav.js';
import type { QueryOf } from '../../../api/operations.js';
import { ChoiceField, useDraft } from '../../filters.js';

/** This year back to the first invoice's (or only this year before any), with one chosen in the URL. */
const yearsSince = (firstIssuedAt: string | undefined, chosen: string): string[] => {
  const thisYear = new Date().getFullYear();
  const first = firstIssuedAt ? Math.min(new Date(firstIssuedAt).getFullYear(), thisYear) : thisYear;
  const years = Array.from({ length: thisYear - first + 1 }, (_, i) => String(thisYear - i));
  return chosen && !years.includes(chosen) ? [...years, chosen] : years;
};

/** Invoices by year and status (kept in the URL), newest first; each viewed, downloaded or rectified. */
export const Invoices = ({ route }: { route: Route }) => {
  const { session, t } = useDashboard();
  const year = route.query.get('year') ?? '';
  const status = route.query.get('status') ?? '';
  // From a withdrawal's page: only its invoices (the first one and any that rectified it).
  const withdrawal = route.query.get('withdrawal') ?? '';
  const [draft, setDraft] = useDraft({ year, status }, `${year}|${status}`);
  const [list, reload] = useLoad(() => {
    const query = { year, status } as QueryOf<'listInvoices'>;
    return session.call('listInvoices', { query });
  }, [year, status]);
  // The unfiltered list is newest first: its last invoice is the merchant's first, and the years
  // to choose run from that one's to this one (no route gives the first year on its own).
  const [everything] = useLoad(() => session.call('listInvoices', { query: {} }), []);
  const years = yearsSince(
    everything.state === 'ready' ? everything.data.at(-1)?.issued_at : undefined,
    year,
  );

  return (
    <>
      <h1>{t('navMoney')}</h1>
      <MoneyNav current="/money/invoices" />
      <form
        class="card filters"
        aria-label={t('filters')}
        onSubmit={(e) => {
          e.preventDefault();
          navigate('/money/invoices', { year: draft.year, status: draft.status });
        }}
      >
        <div class="filter-grid">
          <ChoiceField
            id="i-year"
            label={t('year')}
            value={draft.year}
            options={years.map((y) => ({ value: y, label: y }))}
            onChoose={(year) => setDraft({ ...draft, year })}
          />
          <ChoiceField
            id="i-status"
            label={t('colStatus')}
            value={draft.status}
            options={(['issued', 'rectified'] as const).map((s) => ({ value: s, label: t(`status_${s}`) }))}
            onChoose={(status) => setDraft({ ...draft, status })}
          />
        </div>
        <div class="actions">
          <button type="submit">{t('applyFilters')}</button>
          {withdrawal && (
            <button type="button" class="secondary" onClick={() => navigate('/money/invoices')}>
              {t('allInvoices')}
            </button>
          )}
        </div>
      </form>
      <section class="card" aria-labelledby="invoices-title">
        <h2 id="invoices-title">{t('invoicesTitle')}</h2>
        <LoadView loaded={list} t={t} reload={reload}>
          {(all) => {
            const shown = withdrawal ? all.filter((i) => i.withdrawal_id === withdrawal) : all;
            return shown.length === 0 ? (
              <p class="muted">{t('noInvoices')}</p>
            ) : (
              <ul class="invoices" data-total={shown.length}>
                {shown.map((inv) => (
                  <InvoiceItem key={inv.id} invoice={inv} all={all} onChanged={reload} />
                ))}
              </ul>
            );
          }}
        </LoadView>
      </section>
    </>
  );
};

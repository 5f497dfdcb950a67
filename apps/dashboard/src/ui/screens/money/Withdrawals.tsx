import { useState } from 'preact/hooks';
import { formatDateTime, shortHex, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href } from '../../router.js';
import { DataTable, PagedList, pagingOf, type Column } from '../../list.js';
import { useLoad } from '../../use-load.js';
import { MoneyNav } from './MoneyNav.js';
import type { Withdrawal } from './types.js';
import { WithdrawalForm } from './WithdrawalForm.js';

const PAGE = 20;

const columns = (t: Translate, lang: string): Column<Withdrawal>[] => [
  {
    label: t('colDate'),
    cell: (w) => <a href={href(`/money/withdrawals/${w.id}`)}>{formatDateTime(w.created_at, lang)}</a>,
  },
  { label: t('colAmount'), num: true, cell: (w) => formatMoney(w.amount, w.currency, lang) },
  { label: t('fee'), num: true, cell: (w) => formatMoney(w.fee, w.currency, lang) },
  { label: t('colStatus'), cell: (w) => <StatusBadge status={w.status} t={t} /> },
  {
    label: t('destination'),
    cell: (w) => <code title={w.destination_address}>{shortHex(w.destination_address)}</code>,
  },
];

/** The withdrawal form and every withdrawal, newest first, in pages. */
export const Withdrawals = () => {
  const { session, t, lang } = useDashboard();
  const [offset, setOffset] = useState(0);
  const [page, reload] = useLoad(
    () => session.call('listWithdrawals', { query: { limit: PAGE, offset } }),
    [offset],
  );

  return (
    <>
      <h1>{t('navMoney')}</h1>
      <MoneyNav current="/money" />
      <WithdrawalForm onCreated={reload} />
      <section class="card" aria-labelledby="withdrawals-title">
        <h2 id="withdrawals-title">{t('withdrawalsTitle')}</h2>
        <PagedList
          loaded={page}
          reload={reload}
          paging={(p) => pagingOf(p, p.withdrawals)}
          onOffset={setOffset}
          empty={<p class="muted">{t('noWithdrawals')}</p>}
          pagedOnly
        >
          {(p) => (
            <DataTable
              caption={t('withdrawalsTitle')}
              columns={columns(t, lang)}
              rows={p.withdrawals}
              rowKey={(w) => w.id}
              rowProps={(w) => ({ 'data-withdrawal-id': w.id })}
              total={p.total}
            />
          )}
        </PagedList>
      </section>
    </>
  );
};

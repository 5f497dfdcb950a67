import { formatAmount, formatDateTime, formatMoney } from '../../../format.js';
import { chainIdOf } from '../../chains.js';
import { useDashboard } from '../../context.js';
import type { Translate } from '../../../i18n.js';
import { DataTable, type Column } from '../../list.js';
import type { PublicChain } from '../../explorer.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import { TYPE_LABELS, type BalanceTransaction } from './types.js';

/**
 * A signed amount as a person reads it: "+25.00" in, "−1.50" out (the minus sign, which screen
 * readers say as "minus"), and a movement of nothing without a sign.
 */
export const signedAmount = (amount: string, lang: string): string => {
  const shown = formatAmount(amount.replace(/^-/, ''), lang);
  if (/^-?0+(\.0+)?$/.test(amount)) return shown;
  return `${amount.startsWith('-') ? '\u2212' : '+'}${shown}`;
};

const columns = (t: Translate, lang: string, chains: PublicChain[]): Column<BalanceTransaction>[] => [
  {
    label: t('colDate'),
    cell: (r) => <time dateTime={r.created_at}>{formatDateTime(r.created_at, lang)}</time>,
  },
  { label: t('btType'), cell: (r) => t(TYPE_LABELS[r.type]) },
  {
    label: t('colAmount'),
    num: true,
    cell: (r) => `${signedAmount(r.amount, lang)} ${r.currency}`,
    cellProps: (r) => ({
      class: `num ${r.amount.startsWith('-') ? 'amount-out' : 'amount-in'}`,
      'data-amount': r.amount,
    }),
  },
  {
    label: t('btBalanceAfter'),
    num: true,
    cell: (r) => formatMoney(r.balance_after, r.currency, lang),
    cellProps: (r) => ({ 'data-balance-after': r.balance_after }),
  },
  { label: t('btFor'), cell: (r) => <Related row={r} /> },
  {
    label: t('colTx'),
    cell: (r) => (
      <OnChain value={r.tx_hash} chainId={chainIdOf(chains, r.blockchain)} kind="tx" label={t('colTx')} />
    ),
  },
];

/** The ledger's rows: what moved, by how much, the balance after it, what it belongs to and its transaction. */
export const BalanceTable = ({ rows, chains }: { rows: BalanceTransaction[]; chains: PublicChain[] }) => {
  const { t, lang } = useDashboard();
  return (
    <DataTable
      caption={t('btTitle')}
      columns={columns(t, lang, chains)}
      rows={rows}
      rowKey={(r) => r.id}
      rowProps={(r) => ({ 'data-balance-transaction': r.type, 'data-id': r.id })}
      tableClass="list balance-transactions"
    />
  );
};

/** Links to the payment, refund or withdrawal a row belongs to (an unattributed arrival has none). */
const Related = ({ row }: { row: BalanceTransaction }) => {
  const { t } = useDashboard();
  const links = [
    row.payment_id && { to: `/payments/${row.payment_id}`, label: t('btSeePayment') },
    row.refund_id && { to: `/refunds/${row.refund_id}`, label: t('btSeeRefund') },
    row.withdrawal_id && { to: `/money/withdrawals/${row.withdrawal_id}`, label: t('btSeeWithdrawal') },
  ].filter((l): l is { to: string; label: string } => !!l);
  if (links.length === 0) return <span class="muted">—</span>;
  return (
    <span class="related">
      {links.map((l) => (
        <a key={l.to} href={href(l.to)}>
          {l.label}
        </a>
      ))}
    </span>
  );
};

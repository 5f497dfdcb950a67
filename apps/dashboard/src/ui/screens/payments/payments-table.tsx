import type { ResponseOf } from '../../../api/operations.js';
import { formatAmount, formatDateTime, shortHex } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { DataTable, type Column } from '../../list.js';
import { href } from '../../router.js';

export type PaymentListItem = ResponseOf<'listPayments'>['payments'][number];

const columns = (t: Translate, lang: string): Column<PaymentListItem>[] => [
  {
    label: t('colDate'),
    cell: (p) => <a href={href(`/payments/${p.id}`)}>{formatDateTime(p.created_at, lang)}</a>,
  },
  { label: t('colAmount'), num: true, cell: (p) => `${formatAmount(p.amount, lang)} ${p.currency}` },
  { label: t('colStatus'), cell: (p) => <StatusBadge status={p.status} t={t} /> },
  { label: t('colCustomer'), cell: (p) => p.customer_email ?? '—' },
  { label: t('colChain'), cell: (p) => p.source_chain },
  { label: t('colTx'), cell: (p) => <code title={p.tx_hash}>{shortHex(p.tx_hash)}</code> },
];

/** Payments as a table on wide screens; each row links to the payment's detail. */
export const PaymentsTable = ({ payments, caption }: { payments: PaymentListItem[]; caption: string }) => {
  const { t, lang } = useDashboard();
  return (
    <DataTable
      caption={caption}
      columns={columns(t, lang)}
      rows={payments}
      rowKey={(p) => p.id}
      rowProps={(p) => ({ 'data-payment-id': p.id })}
    />
  );
};

import type { ResponseOf } from '../../../api/operations.js';
import { formatDateTime, formatMoney, shortHex } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { chainName } from '../../chain-name.js';
import { Clip, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { DataTable, type Column } from '../../list.js';
import { href } from '../../router.js';

export type PaymentListItem = ResponseOf<'listPayments'>['payments'][number];

const columns = (t: Translate, lang: string): Column<PaymentListItem>[] => [
  {
    label: t('colDate'),
    cell: (p) => <a href={href(`/payments/${p.id}`)}>{formatDateTime(p.created_at, lang)}</a>,
  },
  { label: t('colAmount'), num: true, cell: (p) => formatMoney(p.amount, p.currency, lang) },
  { label: t('colStatus'), cell: (p) => <StatusBadge status={p.status} t={t} /> },
  { label: t('colCustomer'), cell: (p) => <Clip value={p.customer_email} /> },
  { label: t('colReference'), cell: (p) => <Clip value={p.reference} /> },
  { label: t('colChain'), cell: (p) => chainName(p.source_chain) },
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

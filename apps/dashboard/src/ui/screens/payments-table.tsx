import type { ResponseOf } from '../../api/operations.js';
import { formatAmount, formatDateTime, shortHex } from '../../format.js';
import { StatusBadge } from '../common.js';
import { useDashboard } from '../context.js';
import { href } from '../router.js';

export type PaymentListItem = ResponseOf<'listPayments'>['payments'][number];

/** Payments as a table on wide screens; each row links to the payment's detail. */
export const PaymentsTable = ({ payments, caption }: { payments: PaymentListItem[]; caption: string }) => {
  const { t, lang } = useDashboard();
  return (
    <div class="table-wrap">
      <table class="list">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('colDate')}</th>
            <th scope="col" class="num">
              {t('colAmount')}
            </th>
            <th scope="col">{t('colStatus')}</th>
            <th scope="col">{t('colCustomer')}</th>
            <th scope="col">{t('colChain')}</th>
            <th scope="col">{t('colTx')}</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((p) => (
            <tr key={p.id} data-payment-id={p.id}>
              <td data-label={t('colDate')}>
                <a href={href(`/payments/${p.id}`)}>{formatDateTime(p.created_at, lang)}</a>
              </td>
              <td data-label={t('colAmount')} class="num">
                {formatAmount(p.amount, lang)} {p.currency}
              </td>
              <td data-label={t('colStatus')}>
                <StatusBadge status={p.status} t={t} />
              </td>
              <td data-label={t('colCustomer')}>{p.customer_email ?? '—'}</td>
              <td data-label={t('colChain')}>{p.source_chain}</td>
              <td data-label={t('colTx')}>
                <code title={p.tx_hash}>{shortHex(p.tx_hash)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

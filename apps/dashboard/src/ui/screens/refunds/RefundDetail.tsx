import type { ResponseOf } from '../../../api/operations.js';
import { chainName } from '../../chain-name.js';
import { formatAmount, formatDateTime } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { Alert, LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { DetailList, useFollowedTransfer, type Detail } from '../../detail.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import { CancelRefund } from './CancelRefund.js';

const LIVE = new Set(['pending', 'processing']);

type Refund = ResponseOf<'getRefundDashboard'> & { chainId: number | undefined };

const refundDetails = (r: Refund, t: Translate, lang: string): Array<Detail | false> => [
  { label: t('refundId'), value: <code>{r.id}</code> },
  { label: t('reason'), value: t(`reason_${r.reason}`) },
  !!r.note && { label: t('noteLabel'), value: r.note },
  {
    label: t('refundTo'),
    value: <OnChain value={r.destination_address} chainId={r.chainId} kind="address" label={t('refundTo')} />,
  },
  { label: t('colChain'), value: chainName(r.blockchain) },
  {
    label: t('refundTx'),
    value: <OnChain value={r.tx_hash} chainId={r.chainId} kind="tx" label={t('refundTx')} />,
  },
  { label: t('historyCreated'), value: formatDateTime(r.created_at, lang) },
  { label: t('completedAt'), value: formatDateTime(r.completed_at, lang) },
  {
    label: t('refundedPayment'),
    value: (
      <>
        <a href={href(`/payments/${r.payment.id}`)}>
          {t('paymentOf', { amount: formatAmount(r.payment.amount, lang), currency: r.payment.currency })}
        </a>{' '}
        <span class="muted">{formatDateTime(r.payment.created_at, lang)}</span>
      </>
    ),
  },
];

/** One refund: amounts, reason and note, its payment, the on-chain transfer; cancel while pending. */
export const RefundDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [refund, reload] = useFollowedTransfer(
    () => session.call('getRefundDashboard', { params: { id } }),
    id,
    LIVE,
  );
  return (
    <>
      <p>
        <a href={href('/refunds')}>{t('allRefunds')}</a>
      </p>
      <LoadView loaded={refund} t={t} reload={reload}>
        {(r) => (
          <>
            <h1>
              {t('refundOf', { amount: formatAmount(r.amount, lang), currency: r.currency })}{' '}
              <StatusBadge status={r.status} t={t} />
            </h1>
            {r.waiting_for_funds && <Alert kind="error">{t('refundWaitingForFunds')}</Alert>}
            {r.status === 'failed' && r.failure_reason && (
              <Alert>{t('refundFailedBecause', { reason: r.failure_reason })}</Alert>
            )}
            <section class="card" aria-labelledby="refund-details-title">
              <h2 id="refund-details-title">{t('details')}</h2>
              <DetailList items={refundDetails(r, t, lang)} />
              {r.status === 'pending' && <CancelRefund id={r.id} onDone={reload} />}
            </section>
          </>
        )}
      </LoadView>
    </>
  );
};

import type { ResponseOf } from '../../../api/operations.js';
import { useEffect } from 'preact/hooks';
import { formatDateTime, formatMoney } from '../../../format.js';
import { LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { OnChain } from '../../OnChain.js';
import { useLoad } from '../../use-load.js';
import type { PaymentDetailView } from './PaymentDetail.js';
import { decimal, units } from './refund-amounts.js';
import { RefundForm } from './refund-form.js';
import { CancelRefund } from '../refunds/CancelRefund.js';

export type RefundListItem = ResponseOf<'listRefundsDashboard'>['refunds'][number];

const LIVE = new Set(['pending', 'processing']);

/**
 * Whether money of the payment sits in the merchant wallet and can go back: a completed payment,
 * or one that failed underpaid with something received.
 */
export const mayRefund = (p: Pick<PaymentDetailView, 'status' | 'failure_reason' | 'received_amount'>) =>
  p.status === 'completed' ||
  (p.status === 'failed' &&
    p.failure_reason === 'underpaid' &&
    p.received_amount !== null &&
    units(p.received_amount) > 0n);

/**
 * The payment's refunds (followed until they end) and, while anything received is left to give
 * back, the refund form.
 */
export const PaymentRefunds = ({ payment, chainId }: { payment: PaymentDetailView; chainId?: number }) => {
  const { session, t, lang } = useDashboard();
  const [refunds, reload] = useLoad(
    async () =>
      (
        await session.call('listRefundsDashboard', { query: { search: payment.id, limit: 200 } })
      ).refunds.filter((r) => r.payment_id === payment.id),
    [payment.id],
  );
  const live = refunds.state === 'ready' && refunds.data.some((r) => LIVE.has(r.status));
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [live, reload]);

  const list = refunds.state === 'ready' ? refunds.data : [];
  const committed = list
    .filter((r) => r.status !== 'failed' && r.status !== 'cancelled')
    .reduce((sum, r) => sum + units(r.amount), 0n);
  // The ceiling the refunds service holds refunds to: what arrived, less what refunds claim.
  const refundable = units(payment.received_amount ?? payment.amount) - committed;
  const suggested = units(payment.amount) < refundable ? units(payment.amount) : refundable;

  return (
    <section class="card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">{t('refundsTitle')}</h2>
      <LoadView loaded={refunds} t={t} reload={reload}>
        {(items) =>
          items.length === 0 ? (
            <p class="muted">{t('noRefunds')}</p>
          ) : (
            <ul class="refunds">
              {items.map((r) => (
                <li key={r.id} data-refund-id={r.id}>
                  <div>
                    <strong>{formatMoney(r.amount, r.currency, lang)}</strong>{' '}
                    <StatusBadge status={r.status} t={t} />
                  </div>
                  <div class="muted">
                    {t(`reason_${r.reason}` as 'reason_other')} · {formatDateTime(r.created_at, lang)}
                  </div>
                  {r.tx_hash && (
                    <div>
                      {t('refundTx')}:{' '}
                      <OnChain value={r.tx_hash} chainId={chainId} kind="tx" label={t('refundTx')} />
                    </div>
                  )}
                  {r.status === 'pending' && <CancelRefund id={r.id} onDone={reload} />}
                </li>
              ))}
            </ul>
          )
        }
      </LoadView>
      {mayRefund(payment) && refunds.state === 'ready' && refundable > 0n && (
        <RefundForm
          payment={payment}
          refundable={decimal(refundable)}
          suggested={decimal(suggested)}
          onCreated={reload}
        />
      )}
    </section>
  );
};

import { useEffect, useState } from 'preact/hooks';
import { formatAmount, formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge, errorText } from '../../common.js';
import { chainIdOf, loadChains } from '../../chains.js';
import type { PublicChain } from '../../explorer.js';
import { useDashboard } from '../../context.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';

const LIVE = new Set(['pending', 'processing']);

/** One refund: amounts, reason and note, its payment, the on-chain transfer; cancel while pending. */
export const RefundDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [refund, reload] = useLoad(async () => {
    const [data, chains] = await Promise.all([
      session.call('getRefundDashboard', { params: { id } }),
      loadChains(session).catch(() => [] as PublicChain[]),
    ]);
    return { ...data, chainId: chainIdOf(chains, data.blockchain) };
  }, [id]);
  const live = refund.state === 'ready' && LIVE.has(refund.data.status);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [live, reload]);

  return (
    <>
      <p>
        <a href={href('/refunds')}>{t('allRefunds')}</a>
      </p>
      <LoadView loaded={refund} t={t} reload={reload}>
        {(r) => {
          const chainId = r.chainId;
          return (
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
                <dl class="details">
                  <dt>{t('refundId')}</dt>
                  <dd>
                    <code>{r.id}</code>
                  </dd>
                  <dt>{t('reason')}</dt>
                  <dd>{t(`reason_${r.reason}` as 'reason_other')}</dd>
                  {r.note && (
                    <>
                      <dt>{t('noteLabel')}</dt>
                      <dd>{r.note}</dd>
                    </>
                  )}
                  <dt>{t('refundTo')}</dt>
                  <dd>
                    <OnChain
                      value={r.destination_address}
                      chainId={chainId}
                      kind="address"
                      label={t('refundTo')}
                    />
                  </dd>
                  <dt>{t('colChain')}</dt>
                  <dd>{r.blockchain}</dd>
                  <dt>{t('refundTx')}</dt>
                  <dd>
                    <OnChain value={r.tx_hash} chainId={chainId} kind="tx" label={t('refundTx')} />
                  </dd>
                  <dt>{t('historyCreated')}</dt>
                  <dd>{formatDateTime(r.created_at, lang)}</dd>
                  <dt>{t('completedAt')}</dt>
                  <dd>{formatDateTime(r.completed_at, lang)}</dd>
                  <dt>{t('refundedPayment')}</dt>
                  <dd>
                    <a href={href(`/payments/${r.payment.id}`)}>
                      {t('paymentOf', {
                        amount: formatAmount(r.payment.amount, lang),
                        currency: r.payment.currency,
                      })}
                    </a>{' '}
                    <span class="muted">{formatDateTime(r.payment.created_at, lang)}</span>
                  </dd>
                </dl>
                {r.status === 'pending' && <CancelPending id={r.id} onDone={reload} />}
              </section>
            </>
          );
        }}
      </LoadView>
    </>
  );
};

const CancelPending = ({ id, onDone }: { id: string; onDone: () => void }) => {
  const { session, t } = useDashboard();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <div class="actions">
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('cancelRefund')}>
          <p>{t('confirmCancelRefund')}</p>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              try {
                await session.call('cancelRefundDashboard', { params: { id } });
                setConfirming(false);
              } catch (err) {
                setError(errorText(t, err));
              }
              onDone();
            }}
          >
            {t('cancelRefund')}
          </button>{' '}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepRefund')}
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t('cancelRefundEllipsis')}
        </button>
      )}
      {error && <Alert>{error}</Alert>}
    </div>
  );
};

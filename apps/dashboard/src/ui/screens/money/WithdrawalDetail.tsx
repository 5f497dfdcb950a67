import { useEffect } from 'preact/hooks';
import { formatAmount, formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge } from '../../common.js';
import { chainIdOf, loadChains } from '../../chains.js';
import { useDashboard } from '../../context.js';
import type { PublicChain } from '../../explorer.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';

const LIVE = new Set(['requested', 'processing']);

/** One withdrawal: the amounts, its two on-chain transfers and its invoice; followed until it ends. */
export const WithdrawalDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useLoad(async () => {
    const [w, chains] = await Promise.all([
      session.call('getWithdrawal', { params: { id } }),
      loadChains(session).catch(() => [] as PublicChain[]),
    ]);
    return { ...w, chainId: chainIdOf(chains, w.blockchain) };
  }, [id]);
  const live = loaded.state === 'ready' && LIVE.has(loaded.data.status);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [live, reload]);

  return (
    <>
      <p>
        <a href={href('/money')}>{t('allWithdrawals')}</a>
      </p>
      <LoadView loaded={loaded} t={t} reload={reload}>
        {(w) => (
          <>
            <h1>
              {t('withdrawalOf', { amount: formatAmount(w.amount, lang), currency: w.currency })}{' '}
              <StatusBadge status={w.status} t={t} />
            </h1>
            {w.status === 'failed' && w.failure_reason && (
              <Alert>{t('withdrawalFailedBecause', { reason: w.failure_reason })}</Alert>
            )}
            <div class="columns">
              <section class="card" aria-labelledby="w-amounts-title">
                <h2 id="w-amounts-title">{t('details')}</h2>
                <dl class="details">
                  <dt>{t('withdrawnAmount')}</dt>
                  <dd>
                    {formatAmount(w.amount, lang)} {w.currency}
                  </dd>
                  <dt>{t('fee')}</dt>
                  <dd>
                    {formatAmount(w.fee, lang)} {w.currency}
                  </dd>
                  <dt>{t('netAmount')}</dt>
                  <dd data-net-amount>
                    {formatAmount(w.net_amount, lang)} {w.currency}
                  </dd>
                  <dt>{t('destinationAddress')}</dt>
                  <dd>
                    <OnChain
                      value={w.destination_address}
                      chainId={w.chainId}
                      kind="address"
                      label={t('destinationAddress')}
                    />
                  </dd>
                  <dt>{t('colChain')}</dt>
                  <dd>{w.blockchain}</dd>
                  <dt>{t('historyCreated')}</dt>
                  <dd>{formatDateTime(w.created_at, lang)}</dd>
                  <dt>{t('completedAt')}</dt>
                  <dd>{formatDateTime(w.completed_at, lang)}</dd>
                </dl>
              </section>
              <section class="card" aria-labelledby="w-transfers-title">
                <h2 id="w-transfers-title">{t('transfers')}</h2>
                <dl class="details">
                  <dt>{t('netTransfer')}</dt>
                  <dd data-transfer="net">
                    <OnChain value={w.tx_hash} chainId={w.chainId} kind="tx" label={t('netTransfer')} />
                  </dd>
                  <dt>{t('feeTransfer')}</dt>
                  <dd data-transfer="fee">
                    <OnChain value={w.fee_tx_hash} chainId={w.chainId} kind="tx" label={t('feeTransfer')} />
                  </dd>
                  <dt>{t('invoice')}</dt>
                  <dd>
                    {w.invoice_id ? (
                      <a href={href('/money/invoices', { withdrawal: w.id })}>{t('seeInvoice')}</a>
                    ) : (
                      <span class="muted">{t('invoiceWhenCompleted')}</span>
                    )}
                  </dd>
                </dl>
              </section>
            </div>
          </>
        )}
      </LoadView>
    </>
  );
};

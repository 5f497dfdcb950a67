import type { ResponseOf } from '../../../api/operations.js';
import { chainName } from '../../chain-name.js';
import { formatAmount, formatDateTime, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { Alert, LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { DetailList, useFollowedTransfer, type Detail } from '../../detail.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';

const LIVE = new Set(['requested', 'processing']);

type Withdrawal = ResponseOf<'getWithdrawal'> & { chainId: number | undefined };

const amounts = (w: Withdrawal, t: Translate, lang: string): Detail[] => [
  { label: t('withdrawnAmount'), value: formatMoney(w.amount, w.currency, lang) },
  { label: t('fee'), value: formatMoney(w.fee, w.currency, lang) },
  {
    label: t('netAmount'),
    value: formatMoney(w.net_amount, w.currency, lang),
    data: { 'data-net-amount': true },
  },
  {
    label: t('destinationAddress'),
    value: (
      <OnChain
        value={w.destination_address}
        chainId={w.chainId}
        kind="address"
        label={t('destinationAddress')}
      />
    ),
  },
  { label: t('colChain'), value: chainName(w.blockchain) },
  { label: t('historyCreated'), value: formatDateTime(w.created_at, lang) },
  { label: t('completedAt'), value: formatDateTime(w.completed_at, lang) },
];

const transfers = (w: Withdrawal, t: Translate): Detail[] => [
  {
    label: t('netTransfer'),
    value: <OnChain value={w.tx_hash} chainId={w.chainId} kind="tx" label={t('netTransfer')} />,
    data: { 'data-transfer': 'net' },
  },
  {
    label: t('feeTransfer'),
    value: <OnChain value={w.fee_tx_hash} chainId={w.chainId} kind="tx" label={t('feeTransfer')} />,
    data: { 'data-transfer': 'fee' },
  },
  {
    label: t('invoice'),
    value: w.invoice_id ? (
      <a href={href('/money/invoices', { withdrawal: w.id })}>{t('seeInvoice')}</a>
    ) : (
      <span class="muted">{t('invoiceWhenCompleted')}</span>
    ),
  },
];

/** One withdrawal: the amounts, its two on-chain transfers and its invoice; followed until it ends. */
export const WithdrawalDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useFollowedTransfer(
    () => session.call('getWithdrawal', { params: { id } }),
    id,
    LIVE,
  );
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
                <DetailList items={amounts(w, t, lang)} />
              </section>
              <section class="card" aria-labelledby="w-transfers-title">
                <h2 id="w-transfers-title">{t('transfers')}</h2>
                <DetailList items={transfers(w, t)} />
              </section>
            </div>
          </>
        )}
      </LoadView>
    </>
  );
};

import type { ResponseOf } from '../../../api/operations.js';
import type { ComponentChildren } from 'preact';
import { bridgeName, chainName, inWords } from '../../chain-name.js';
import { formatAmount, formatDateTime, formatMoney } from '../../../format.js';
import { LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { chainIdOf, loadChains } from '../../chains.js';
import type { PublicChain } from '../../explorer.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { PaymentRefunds } from './PaymentRefunds.js';

export type PaymentDetailView = ResponseOf<'getPayment'>;

const Row = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <>
    <dt>{label}</dt>
    <dd>{children}</dd>
  </>
);

/** The statuses the payment went through, as the payments service recorded each transition. */
const History = ({ p }: { p: PaymentDetailView }) => {
  const { t, lang } = useDashboard();
  const steps: Array<{ label: string; at?: string }> = p.status_history.map((change, i) => ({
    label:
      i === 0
        ? t('historyCreated')
        : change.status === 'completed'
          ? t('historyCompleted')
          : change.status === 'failed'
            ? t('historyFailed', { reason: p.failure_reason ? inWords(p.failure_reason) : '—' })
            : t(`status_${change.status}` as 'status_pending'),
    at: change.at,
  }));
  // The attestation service's own word on a transfer still under way (it has no time of its own).
  const underWay = p.status !== 'completed' && p.status !== 'failed';
  if (p.is_cross_chain && p.cctp_attestation_status && underWay)
    steps.push({ label: t('historyAttestation', { status: p.cctp_attestation_status }) });
  return (
    <ol class="history">
      {steps.map((s, i) => (
        <li key={i}>
          <span>{s.label}</span> {s.at && <time dateTime={s.at}>{formatDateTime(s.at, lang)}</time>}
        </li>
      ))}
    </ol>
  );
};

const Details = ({ p, chains }: { p: PaymentDetailView; chains: PublicChain[] }) => {
  const { t, lang } = useDashboard();
  const source = p.source_chain_id ?? chainIdOf(chains, p.source_chain);
  const dest = p.destination_chain_id ?? chainIdOf(chains, p.destination_chain);
  const merchantChain = p.is_cross_chain ? dest : source;
  return (
    <dl class="details">
      <Row label={t('paymentId')}>
        <code>{p.id}</code>
      </Row>
      <Row label={t('colCustomer')}>{p.customer_email ?? '—'}</Row>
      <Row label={t('colReference')}>{p.reference ?? '—'}</Row>
      {p.description && <Row label={t('description')}>{p.description}</Row>}
      {p.expected_amount && (
        <Row label={t('expectedAmount')}>{formatMoney(p.expected_amount, p.currency, lang)}</Row>
      )}
      {p.received_amount && (
        <Row label={t('receivedAmount')}>{formatMoney(p.received_amount, p.currency, lang)}</Row>
      )}
      {p.surplus_amount && (
        <Row label={t('surplusAmount')}>{formatMoney(p.surplus_amount, p.currency, lang)}</Row>
      )}
      {p.cctp_fee_amount && (
        <Row label={t('cctpFeeAmount')}>{formatMoney(p.cctp_fee_amount, p.currency, lang)}</Row>
      )}
      {p.failure_reason && <Row label={t('failureReason')}>{inWords(p.failure_reason)}</Row>}
      <Row label={p.is_cross_chain ? t('sourceChain') : t('colChain')}>{chainName(p.source_chain)}</Row>
      {p.is_cross_chain && <Row label={t('destinationChain')}>{chainName(p.destination_chain)}</Row>}
      {p.bridge_provider && <Row label={t('bridge')}>{bridgeName(t, p.bridge_provider)}</Row>}
      <Row label={p.is_cross_chain ? t('burnTx') : t('colTx')}>
        <OnChain value={p.tx_hash} chainId={source} kind="tx" label={t('colTx')} />
      </Row>
      {p.is_cross_chain && (
        <Row label={t('mintTx')}>
          <OnChain value={p.mint_tx_hash} chainId={dest} kind="tx" label={t('mintTx')} />
        </Row>
      )}
      {p.merchant_transfer_tx_hash && (
        <Row label={t('merchantTransferTx')}>
          <OnChain
            value={p.merchant_transfer_tx_hash}
            chainId={dest}
            kind="tx"
            label={t('merchantTransferTx')}
          />
        </Row>
      )}
      <Row label={t('payer')}>
        <OnChain value={p.from_address} chainId={source} kind="address" label={t('payer')} />
      </Row>
      <Row label={t('recipient')}>
        <OnChain value={p.to_address} chainId={merchantChain} kind="address" label={t('recipient')} />
      </Row>
      {p.checkout_session_id && (
        <Row label={t('checkoutSession')}>
          <code>{p.checkout_session_id}</code>
        </Row>
      )}
      {p.metadata && Object.keys(p.metadata).length > 0 && (
        <Row label={t('metadata')}>
          <pre>{JSON.stringify(p.metadata, null, 2)}</pre>
        </Row>
      )}
    </dl>
  );
};

/** A payment: its details and on-chain links, its history, its refunds and the refund form. */
export const PaymentDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useLoad(async () => {
    const [payment, chains] = await Promise.all([
      session.call('getPayment', { params: { id } }),
      loadChains(session).catch(() => [] as PublicChain[]),
    ]);
    return { payment, chains };
  }, [id]);
  return (
    <>
      <p>
        <a href={href('/payments')}>← {t('backToPayments')}</a>
      </p>
      <LoadView loaded={loaded} t={t} reload={reload}>
        {({ payment: p, chains }) => (
          <>
            <h1>
              {t('paymentOf', { amount: formatAmount(p.amount, lang), currency: p.currency })}{' '}
              <StatusBadge status={p.status} t={t} />
            </h1>
            <div class="columns">
              <section class="card" aria-labelledby="details-title">
                <h2 id="details-title">{t('details')}</h2>
                <Details p={p} chains={chains} />
              </section>
              <div>
                <section class="card" aria-labelledby="history-title">
                  <h2 id="history-title">{t('history')}</h2>
                  <History p={p} />
                </section>
                <PaymentRefunds
                  payment={p}
                  chainId={p.is_cross_chain ? (p.destination_chain_id ?? undefined) : p.source_chain_id}
                />
              </div>
            </div>
          </>
        )}
      </LoadView>
    </>
  );
};

import type { BodyOf, ResponseOf } from '../../api/operations.js';
import { useEffect, useState } from 'preact/hooks';
import { formatAmount, formatDateTime, parseAmountInput } from '../../format.js';
import { Alert, LoadView, StatusBadge, errorText } from '../common.js';
import { ConfirmMoney } from '../ConfirmMoney.js';
import { useDashboard } from '../context.js';
import { OnChain } from '../OnChain.js';
import { useIdempotencyKey } from '../idempotency.js';
import { useLoad } from '../use-load.js';
import type { PaymentDetailView } from './PaymentDetail.js';

type RefundBody = BodyOf<'createRefundDashboard'>;
export type RefundListItem = ResponseOf<'listRefundsDashboard'>['refunds'][number];

export const REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;
const LIVE = new Set(['pending', 'processing']);
const UNIT = 1_000_000n;
const units = (amount: string): bigint => {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * UNIT + BigInt(frac.padEnd(6, '0').slice(0, 6) || '0');
};
const decimal = (u: bigint): string => `${u / UNIT}.${(u % UNIT).toString().padStart(6, '0')}`;

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
                    <strong>
                      {formatAmount(r.amount, lang)} {r.currency}
                    </strong>{' '}
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

const CancelRefund = ({ id, onDone }: { id: string; onDone: () => void }) => {
  const { session, t } = useDashboard();
  const [error, setError] = useState<string>();
  return (
    <>
      <button
        type="button"
        class="secondary small"
        onClick={async () => {
          if (!window.confirm(t('confirmCancelRefund'))) return;
          try {
            await session.call('cancelRefundDashboard', { params: { id } });
          } catch (err) {
            setError(errorText(t, err));
          }
          onDone();
        }}
      >
        {t('cancelRefund')}
      </button>
      {error && <Alert>{error}</Alert>}
    </>
  );
};

const RefundForm = ({
  payment,
  refundable,
  suggested,
  onCreated,
}: {
  payment: PaymentDetailView;
  /** the most that can still be refunded */
  refundable: string;
  /** what an empty amount refunds: the payment's amount, capped by `refundable` */
  suggested: string;
  onCreated: () => void;
}) => {
  const { session, account, t, lang } = useDashboard();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<RefundBody['reason']>('requested_by_customer');
  // The refund as it will be sent, shown for confirmation before anything moves.
  const [pending, setPending] = useState<{ body: RefundBody; amount: string }>();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  // A retried submit (a lost answer) replays, never refunds twice; a changed form is a new refund.
  const idempotency = useIdempotencyKey();

  const review = (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    const exact = amount.trim() === '' ? suggested : parseAmountInput(amount);
    if (!exact || units(exact) <= 0n || units(exact) > units(refundable)) {
      setError(t('refundAmountInvalid', { max: formatAmount(refundable, lang) }));
      return;
    }
    const body = {
      paymentId: payment.id,
      ...(amount.trim() === '' ? {} : { amount: exact }),
      reason,
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    setPending({ body, amount: exact });
  };

  const send = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const { body, amount: exact } = pending;
      await session.call('createRefundDashboard', { body, idempotencyKey: idempotency.keyFor(body) });
      setDone(t('refundCreated', { amount: formatAmount(exact, lang), currency: payment.currency }));
      setAmount('');
      setNote('');
      idempotency.done();
      onCreated();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setPending(undefined);
      setBusy(false);
    }
  };

  return (
    <form class="form refund-form" onSubmit={review} noValidate aria-labelledby="refund-form-title">
      <h3 id="refund-form-title">{t('refundPayment')}</h3>
      <label for="refund-amount">{t('refundAmount', { currency: payment.currency })}</label>
      <input
        id="refund-amount"
        inputMode="decimal"
        value={amount}
        placeholder={formatAmount(suggested, lang)}
        onInput={(e) => setAmount(e.currentTarget.value)}
        aria-describedby="refund-amount-hint"
      />
      <p id="refund-amount-hint" class="hint">
        {suggested === refundable
          ? t('refundAmountHint', { max: formatAmount(refundable, lang), currency: payment.currency })
          : t('refundAmountHintCapped', {
              suggested: formatAmount(suggested, lang),
              max: formatAmount(refundable, lang),
              currency: payment.currency,
            })}
      </p>
      <label for="refund-reason">{t('reason')}</label>
      <select
        id="refund-reason"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value as RefundBody['reason'])}
      >
        {REASONS.map((r) => (
          <option key={r} value={r}>
            {t(`reason_${r}`)}
          </option>
        ))}
      </select>
      <label for="refund-note">{t('note')}</label>
      <textarea
        id="refund-note"
        maxLength={500}
        rows={2}
        value={note}
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{done}</Alert>}
      {pending ? (
        <ConfirmMoney
          title={t('confirmRefundTitle')}
          rows={[
            [t('colAmount'), `${formatAmount(pending.amount, lang)} ${payment.currency}`],
            [
              t('destination'),
              <>
                {t('refundToPayer')}
                <br />
                <code data-confirm-destination>{payment.from_address}</code>
              </>,
            ],
            [t('colChain'), account.merchant.blockchain],
          ]}
          confirmLabel={busy ? t('refunding') : t('confirmRefund')}
          busy={busy}
          onConfirm={send}
          onBack={() => setPending(undefined)}
        />
      ) : (
        <button type="submit" disabled={busy}>
          {t('refund')}
        </button>
      )}
    </form>
  );
};

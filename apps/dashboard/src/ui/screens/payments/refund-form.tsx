import { useState } from 'preact/hooks';
import type { BodyOf } from '../../../api/operations.js';
import { formatAmount, parseAmountInput, formatMoney } from '../../../format.js';
import type { Translate } from '../../../i18n.js';
import { Alert } from '../../common.js';
import { ConfirmMoney } from '../../ConfirmMoney.js';
import { chainName } from '../../chain-name.js';
import { useDashboard } from '../../context.js';
import { TextField, TitledForm, useSubmit } from '../../form.js';
import { useIdempotencyKey } from '../../idempotency.js';
import type { PaymentDetailView } from './PaymentDetail.js';
import { units } from './refund-amounts.js';

type RefundBody = BodyOf<'createRefundDashboard'>;
/** The form as typed: the amount (empty: the suggested one), the reason and a note. */
interface Draft {
  amount: string;
  reason: RefundBody['reason'];
  note: string;
}
const EMPTY: Draft = { amount: '', reason: 'requested_by_customer', note: '' };

const REASONS = ['requested_by_customer', 'duplicate', 'fraudulent', 'other'] as const;

/** The amount (empty: the suggested one), the reason and a note. */
const RefundFields = ({
  t,
  lang,
  currency,
  refundable,
  suggested,
  draft,
  set,
  amountError,
}: {
  t: Translate;
  lang: string;
  currency: string;
  refundable: string;
  suggested: string;
  draft: Draft;
  set: (next: Partial<Draft>) => void;
  amountError: string | undefined;
}) => (
  <>
    <TextField
      id="refund-amount"
      label={t('refundAmount', { currency })}
      inputMode="decimal"
      value={draft.amount}
      placeholder={formatAmount(suggested, lang)}
      onValue={(amount) => set({ amount })}
      error={amountError}
      hint={
        suggested === refundable
          ? t('refundAmountHint', { max: formatAmount(refundable, lang), currency })
          : t('refundAmountHintCapped', {
              suggested: formatAmount(suggested, lang),
              max: formatAmount(refundable, lang),
              currency,
            })
      }
    />
    <label for="refund-reason">{t('reason')}</label>
    <select
      id="refund-reason"
      value={draft.reason}
      onChange={(e) => set({ reason: e.currentTarget.value as RefundBody['reason'] })}
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
      value={draft.note}
      onInput={(e) => set({ note: e.currentTarget.value })}
    />
  </>
);

/** The refund as it is sent: no amount when the form's is empty (the suggested one), no empty note. */
const refundBody = (
  paymentId: string,
  typed: string,
  exact: string,
  reason: RefundBody['reason'],
  note: string,
) => ({
  paymentId,
  ...(typed.trim() === '' ? {} : { amount: exact }),
  reason,
  ...(note.trim() ? { note: note.trim() } : {}),
});

/** What the confirmation shows: the amount, back to the payer's address, on the merchant's chain. */
const confirmRows = (amount: string, payment: PaymentDetailView, chain: string, t: Translate, lang: string) =>
  [
    [t('colAmount'), formatMoney(amount, payment.currency, lang)],
    [
      t('destination'),
      <>
        {t('refundToPayer')}
        <br />
        <code data-confirm-destination>{payment.from_address}</code>
      </>,
    ],
    [t('colChain'), chain],
  ] as const;

/** A refund of the payment, shown for confirmation before anything moves. */
export const RefundForm = ({
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
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const set = (next: Partial<Draft>) => setDraft((d) => ({ ...d, ...next }));
  // The refund as it will be sent, shown for confirmation before anything moves.
  const [pending, setPending] = useState<{ body: RefundBody; amount: string }>();
  const { busy, error, setError, submit } = useSubmit();
  const [done, setDone] = useState<string>();
  const [amountError, setAmountError] = useState<string>();
  // A retried submit (a lost answer) replays, never refunds twice; a changed form is a new refund.
  const idempotency = useIdempotencyKey();

  const review = (e: Event) => {
    e.preventDefault();
    setDone(undefined);
    const exact = draft.amount.trim() === '' ? suggested : parseAmountInput(draft.amount);
    const fits = !!exact && units(exact) > 0n && units(exact) <= units(refundable);
    setError(undefined);
    setAmountError(fits ? undefined : t('refundAmountInvalid', { max: formatAmount(refundable, lang) }));
    if (fits)
      setPending({
        body: refundBody(payment.id, draft.amount, exact, draft.reason, draft.note),
        amount: exact,
      });
  };

  const create = async ({ body, amount: exact }: { body: RefundBody; amount: string }) => {
    try {
      await session.call('createRefundDashboard', { body, idempotencyKey: idempotency.keyFor(body) });
      setDone(t('refundCreated', { amount: formatAmount(exact, lang), currency: payment.currency }));
      set({ amount: '', note: '' });
      idempotency.done();
      onCreated();
    } finally {
      setPending(undefined);
    }
  };
  const send = () => pending && void submit(() => create(pending));

  return (
    <TitledForm
      id="refund-form"
      title={t('refundPayment')}
      level={3}
      class="form refund-form"
      onSubmit={review}
    >
      <RefundFields
        t={t}
        lang={lang}
        currency={payment.currency}
        refundable={refundable}
        suggested={suggested}
        draft={draft}
        set={set}
        amountError={amountError}
      />
      {error && <Alert>{error}</Alert>}
      {done && <Alert kind="ok">{done}</Alert>}
      {pending ? (
        <ConfirmMoney
          title={t('confirmRefundTitle')}
          rows={confirmRows(pending.amount, payment, chainName(account.merchant.blockchain), t, lang)}
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
    </TitledForm>
  );
};

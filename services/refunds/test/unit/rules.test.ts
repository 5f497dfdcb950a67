import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { PaymentCompletedData, PaymentFailedData } from '@stablepay/contracts';
import {
  COMMITTED_REFUND_STATUSES,
  REFUND_TRANSITIONS,
  fundsCover,
  merchantChainOf,
  refundableRemainder,
  withinRefundWindow,
} from '../../src/index.js';
import { defaultRefundUnits, statusesLeadingTo } from '../../src/refunds/rules.js';
import { toRefundablePayment, toRefundableShortfall } from '../../src/payments/payment-projection.js';
import { likePattern } from '../../src/refunds/refunds-repo.js';

const DAY_MS = 86_400_000;

const completed = (overrides: Partial<PaymentCompletedData> = {}): PaymentCompletedData => ({
  payment_id: randomUUID(),
  merchant_id: randomUUID(),
  amount: '25.500000',
  currency: 'USDC',
  status: 'completed',
  tx_hash: `0x${'ab'.repeat(32)}`,
  from_address: `0x${'12'.repeat(20)}`,
  to_address: `0x${'34'.repeat(20)}`,
  source_chain: 'BASE',
  destination_chain: null,
  is_cross_chain: false,
  completed_at: '2025-01-02T03:04:05.678Z',
  ...overrides,
});

describe('refund state machine', () => {
  it('cancels only from pending and ends only from processing', () => {
    expect(statusesLeadingTo('cancelled')).to.deep.equal(['pending']);
    expect(statusesLeadingTo('processing')).to.deep.equal(['pending']);
    expect(statusesLeadingTo('completed')).to.deep.equal(['processing']);
    expect(statusesLeadingTo('failed')).to.deep.equal(['processing']);
    expect(statusesLeadingTo('pending')).to.deep.equal([]);
  });

  it('has no way out of completed, failed or cancelled', () => {
    for (const s of ['completed', 'failed', 'cancelled'] as const)
      expect(REFUND_TRANSITIONS[s]).to.deep.equal([]);
  });

  it('counts pending, processing and completed refunds against the payment', () => {
    expect([...COMMITTED_REFUND_STATUSES].sort()).to.deep.equal(['completed', 'pending', 'processing']);
  });
});

describe('refund rules', () => {
  it('sends refunds from the chain where the merchant received the funds', () => {
    expect(merchantChainOf(completed())).to.equal('BASE');
    expect(
      merchantChainOf(completed({ is_cross_chain: true, source_chain: 'ETH', destination_chain: 'ARB' })),
    ).to.equal('ARB');
    expect(merchantChainOf(completed({ source_chain: 'DOGE' }))).to.equal(undefined);
    expect(merchantChainOf(completed({ is_cross_chain: true, destination_chain: null }))).to.equal(undefined);
  });

  it('allows refunds up to and including the last moment of the window', () => {
    const completedAt = new Date('2025-01-01T00:00:00.000Z');
    const at = (ms: number) => new Date(completedAt.getTime() + ms);
    expect(withinRefundWindow(completedAt, at(179 * DAY_MS), 180)).to.equal(true);
    expect(withinRefundWindow(completedAt, at(180 * DAY_MS), 180)).to.equal(true);
    expect(withinRefundWindow(completedAt, at(180 * DAY_MS + 1), 180)).to.equal(false);
    expect(withinRefundWindow(completedAt, at(181 * DAY_MS), 180)).to.equal(false);
  });

  it('computes the refundable remainder exactly, never below zero', () => {
    const paid = (amount: string) => ({ amount, receivedAmount: null });
    expect(refundableRemainder(paid('0.300000'), '0.100000')).to.equal(200_000n);
    expect(refundableRemainder(paid('100.000000'), '99.999999')).to.equal(1n);
    expect(refundableRemainder(paid('100.000000'), '100.000000')).to.equal(0n);
    expect(refundableRemainder(paid('10.000000'), '12.000000')).to.equal(0n);
  });

  it("takes the ceiling from what was received: an overpayment's surplus, an underpayment's arrival", () => {
    expect(refundableRemainder({ amount: '10.000000', receivedAmount: '10.500000' }, '10.000000')).to.equal(
      500_000n,
    );
    expect(refundableRemainder({ amount: '5.000000', receivedAmount: '0.020000' }, '0')).to.equal(20_000n);
  });

  it("defaults a refund to the payment's amount, capped by the ceiling", () => {
    expect(defaultRefundUnits('10.000000', 10_500_000n)).to.equal(10_000_000n);
    expect(defaultRefundUnits('5.000000', 20_000n)).to.equal(20_000n);
  });

  it('projects a payment that failed underpaid with money received, and no other failure', () => {
    const failed = (over: Partial<PaymentFailedData>): PaymentFailedData => ({
      ...completed(),
      status: 'failed',
      failure_reason: 'underpaid',
      received_amount: '0.020000',
      ...over,
    });
    const at = new Date('2025-02-01T00:00:00.000Z');
    const r = toRefundableShortfall(failed({}), at);
    expect(r?.ok && r.payment).to.deep.include({
      status: 'failed',
      receivedAmount: '0.020000',
      completedAt: at,
    });
    expect(toRefundableShortfall(failed({ received_amount: '0.000000' }), at)).to.equal(undefined);
    expect(toRefundableShortfall(failed({ received_amount: null }), at)).to.equal(undefined);
    expect(toRefundableShortfall(failed({ failure_reason: 'wrong_recipient' }), at)).to.equal(undefined);
  });

  it('dispatches only when the balance covers the refund on top of what is already committed', () => {
    expect(fundsCover('100.000000', '40.000000', '60.000000')).to.equal(true);
    expect(fundsCover('100.000000', '40.000000', '60.000001')).to.equal(false);
    expect(fundsCover('0', '0.000000', '0.000001')).to.equal(false);
  });

  it('escapes LIKE wildcards in search text', () => {
    expect(likePattern('a%b_c\\')).to.equal('%a\\%b\\_c\\\\%');
  });
});

describe('payment projection', () => {
  it('keeps what a refund needs, on the merchant chain', () => {
    const d = completed({ is_cross_chain: true, source_chain: 'ETH', destination_chain: 'BASE' });
    const r = toRefundablePayment(d);
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.payment).to.deep.include({
      paymentId: d.payment_id,
      merchantId: d.merchant_id,
      amount: '25.500000',
      currency: 'USDC',
      status: 'completed',
      blockchain: 'BASE',
      fromAddress: d.from_address,
      txHash: d.tx_hash,
    });
    expect(r.payment.completedAt.toISOString()).to.equal(d.completed_at);
  });

  it('names what makes a payment unrefundable', () => {
    const noChain = toRefundablePayment(completed({ source_chain: null }));
    expect(noChain).to.deep.equal({ ok: false, problem: 'source_chain null is not a known blockchain' });
    const noPayer = toRefundablePayment(completed({ from_address: 'someone' }));
    expect(noPayer.ok).to.equal(false);
    expect(toRefundablePayment(completed({ tx_hash: null })).ok).to.equal(false);
  });
});

import { expect } from 'chai';
import { EventTypes, createEvent, eventCatalog, isEventOfType, parseEvent } from '../../src/index.js';

const MERCHANT = '6f1d2c3b-4a59-4e7f-8a9b-0c1d2e3f4a5b';
const PAYMENT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function completed(overrides: Record<string, unknown> = {}) {
  return {
    id: 'aa0e8400-e29b-41d4-a716-446655440000',
    type: EventTypes.PaymentCompleted,
    version: 1,
    occurredAt: '2025-03-01T12:00:00.000Z',
    producer: 'payments',
    correlationId: 'req-123',
    merchantId: MERCHANT,
    data: {
      payment_id: PAYMENT,
      merchant_id: MERCHANT,
      amount: '25.000000',
      currency: 'USDC',
      status: 'completed',
      tx_hash: `0x${'ab'.repeat(32)}`,
      from_address: `0x${'11'.repeat(20)}`,
      to_address: `0x${'22'.repeat(20)}`,
      source_chain: 'BASE',
      destination_chain: null,
      is_cross_chain: false,
      customer_email: 'buyer@example.com',
      reference: null,
      metadata: null,
      completed_at: '2025-03-01T12:00:00.000Z',
    },
    ...overrides,
  };
}

describe('parseEvent', () => {
  it('accepts a valid event and types its data', () => {
    const result = parseEvent(completed());
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect(result.event.type).to.equal('payment.completed');
    if (isEventOfType(result.event, EventTypes.PaymentCompleted)) {
      expect(result.event.data.payment_id).to.equal(PAYMENT);
    } else {
      expect.fail('narrowing failed');
    }
  });

  it('rejects an unknown type', () => {
    const result = parseEvent(completed({ type: 'payment.teleported' }));
    expect(result).to.deep.equal({ ok: false, reason: 'unknown event type "payment.teleported"' });
  });

  it('rejects an unknown version', () => {
    const result = parseEvent(completed({ version: 2 }));
    expect(result.ok).to.equal(false);
    if (!result.ok)
      expect(result.reason).to.match(/unsupported version 2 of "payment.completed" \(known: 1\)/);
  });

  it('rejects invalid data with the failing field', () => {
    const bad = completed();
    (bad.data as Record<string, unknown>).amount = 25;
    const result = parseEvent(bad);
    expect(result.ok).to.equal(false);
    if (!result.ok) expect(result.reason).to.match(/invalid data for "payment.completed" v1: amount/);
  });

  it('rejects a broken envelope', () => {
    for (const raw of [
      null,
      'x',
      {},
      completed({ id: 'nope' }),
      completed({ version: 0 }),
      completed({ occurredAt: 'yesterday' }),
    ]) {
      const result = parseEvent(raw);
      expect(result.ok, JSON.stringify(raw)).to.equal(false);
      if (!result.ok) expect(result.reason).to.match(/^invalid envelope: /);
    }
  });

  it('has a version 1 schema for every event type', () => {
    for (const type of Object.values(EventTypes)) {
      expect(eventCatalog[type], type).to.have.property('1');
    }
  });
});

describe('createEvent', () => {
  it('builds an envelope that parseEvent accepts', () => {
    const event = createEvent({
      type: EventTypes.TransferRequested,
      producer: 'refunds',
      correlationId: 'req-1',
      merchantId: MERCHANT,
      data: {
        idempotencyKey: `refund:${PAYMENT}`,
        purpose: 'refund',
        merchantId: MERCHANT,
        blockchain: 'BASE',
        token: 'USDC',
        amount: '1.000000',
        toAddress: `0x${'11'.repeat(20)}`,
      },
    });
    expect(event.version).to.equal(1);
    expect(parseEvent(JSON.parse(JSON.stringify(event))).ok).to.equal(true);
  });

  it('refuses data that consumers would reject', () => {
    expect(() =>
      createEvent({
        type: EventTypes.TransferConfirmed,
        producer: 'chain-watcher',
        correlationId: 'c',
        merchantId: MERCHANT,
        data: { idempotencyKey: 'k', purpose: 'refund', txHash: '0x1', blockNumber: 1 },
      }),
    ).to.throw();
  });
});

import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  PaymentWebhookEnvelope,
  RefundWebhookEnvelope,
  WEBHOOK_BODY_SCHEMAS,
  buildOpenApiDocument,
  type PaymentWebhookData,
  type RefundWebhookData,
} from '@stablepay/contracts';
import { webhookBody } from '../../src/webhooks/payloads.js';
import { docBlocks } from '../support/doc-snippets.js';
import { extensionEventData } from '../support/fixtures.js';

const hash = `0x${'ab'.repeat(32)}`;
const payment = (over: Record<string, unknown> = {}) =>
  ({
    payment_id: randomUUID(),
    merchant_id: randomUUID(),
    amount: '12.500000',
    currency: 'USDC',
    status: 'completed',
    tx_hash: hash,
    from_address: `0x${'1'.repeat(40)}`,
    to_address: `0x${'2'.repeat(40)}`,
    source_chain: 'BASE',
    destination_chain: null,
    is_cross_chain: false,
    customer_email: 'buyer@example.com',
    reference: 'order-1',
    metadata: { order: 1 },
    completed_at: '2025-03-01T12:00:00.000Z',
    ...over,
  }) as PaymentWebhookData;
const refund = (over: Record<string, unknown> = {}) =>
  ({
    refund_id: randomUUID(),
    payment_id: randomUUID(),
    merchant_id: randomUUID(),
    amount: '2.000000',
    currency: 'EURC',
    status: 'failed',
    destination_address: `0x${'3'.repeat(40)}`,
    blockchain: 'ETH',
    reason: 'requested_by_customer',
    tx_hash: null,
    failure_reason: 'insufficient_funds',
    ...over,
  }) as RefundWebhookData;

describe('webhook bodies', () => {
  it('carry the spec payment fields and drop the internal ones', () => {
    const body = JSON.parse(webhookBody('payment.completed', '2025-03-01T12:00:00Z', payment()));
    expect(PaymentWebhookEnvelope.parse(body)).to.deep.equal(body);
    expect(Object.keys(body)).to.deep.equal(['event', 'timestamp', 'data']);
    expect(body.timestamp).to.equal('2025-03-01T12:00:00.000Z');
    expect(body.data).to.not.have.any.keys('merchant_id', 'completed_at', 'merchant_transfer_tx_hash');
    expect(body.data).to.include({
      amount: '12.500000',
      status: 'completed',
      customer_email: 'buyer@example.com',
    });
  });

  it('keep merchant_transfer_tx_hash for cross-chain payments only', () => {
    const cross = JSON.parse(
      webhookBody(
        'payment.completed',
        '2025-03-01T12:00:00Z',
        payment({ is_cross_chain: true, destination_chain: 'ARB', merchant_transfer_tx_hash: hash }),
      ),
    );
    expect(cross.data.merchant_transfer_tx_hash).to.equal(hash);
    const same = JSON.parse(
      webhookBody('payment.completed', '2025-03-01T12:00:00Z', payment({ merchant_transfer_tx_hash: hash })),
    );
    expect(same.data).to.not.have.property('merchant_transfer_tx_hash');
  });

  it('do not leak the internal failure reason of a failed payment', () => {
    const body = JSON.parse(
      webhookBody(
        'payment.failed',
        '2025-03-01T12:00:00Z',
        payment({ status: 'failed', failure_reason: 'x' }),
      ),
    );
    expect(body.data).to.not.have.any.keys('failure_reason', 'merchant_id');
    expect(body.data.status).to.equal('failed');
  });

  it('carry the refund fields, failure_reason on refund.failed only', () => {
    const failed = JSON.parse(webhookBody('refund.failed', '2025-03-01T12:00:00Z', refund()));
    expect(RefundWebhookEnvelope.parse(failed)).to.deep.equal(failed);
    expect(failed.data).to.not.have.property('merchant_id');
    expect(failed.data.failure_reason).to.equal('insufficient_funds');
    expect(Object.keys(failed.data).sort()).to.deep.equal(
      [
        'refund_id',
        'payment_id',
        'amount',
        'currency',
        'status',
        'destination_address',
        'blockchain',
        'reason',
        'tx_hash',
        'failure_reason',
      ].sort(),
    );
    const done = JSON.parse(
      webhookBody('refund.completed', '2025-03-01T12:00:00Z', refund({ status: 'completed', tx_hash: hash })),
    );
    expect(done.data).to.not.have.property('failure_reason');
    expect(done.data.tx_hash).to.equal(hash);
  });

  it('of the extension events parse with their documented schema and carry no internal field', () => {
    const merchantId = randomUUID();
    for (const [type, data] of Object.entries(extensionEventData(merchantId))) {
      const raw = webhookBody(type as keyof typeof WEBHOOK_BODY_SCHEMAS, '2026-11-27T10:15:00Z', data);
      const body = JSON.parse(raw) as { data: Record<string, unknown> };
      // zod passes unknown keys by, so the keys are compared too: exactly the documented fields.
      const schema = WEBHOOK_BODY_SCHEMAS[type as keyof typeof WEBHOOK_BODY_SCHEMAS];
      expect(schema.safeParse(body).success, type).to.equal(true);
      expect(Object.keys(body.data).sort(), type).to.deep.equal(
        Object.keys((schema.shape.data as { shape: object }).shape).sort(),
      );
      expect(raw, type).to.not.contain(merchantId);
      expect(body.data, type).to.not.have.any.keys('merchant_id', 'treasury_address', 'pdf_url', 'language');
    }
  });

  it('are shown in the reference with an example that parses as the event it documents', () => {
    const webhooks = buildOpenApiDocument().webhooks as Record<string, any>;
    for (const type of Object.keys(extensionEventData(randomUUID()))) {
      const example = webhooks[type].post.requestBody.content['application/json'].example;
      expect(example, type).to.exist;
      expect(WEBHOOK_BODY_SCHEMAS[type as keyof typeof WEBHOOK_BODY_SCHEMAS].parse(example)).to.deep.equal(
        example,
      );
    }
    // docs/api/webhooks.md shows the same examples.
    const exampleOf = (event: string): unknown =>
      webhooks[event].post.requestBody.content['application/json'].example;
    const documented = docBlocks('json').map((b) => JSON.parse(b) as { event: string });
    for (const body of documented) expect(body, body.event).to.deep.equal(exampleOf(body.event));
    expect(documented.map((b) => b.event)).to.have.members(Object.keys(extensionEventData(randomUUID())));
  });
});

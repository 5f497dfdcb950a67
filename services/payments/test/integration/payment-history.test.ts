import { expect } from 'chai';
import type { PaymentStatusChange } from '@stablepay/contracts';
import { completePayment, failPayment } from '../../src/payments/payment-state.js';
import { advanceCrossChainPayment, advanceRelayedPaymentIn } from '../../src/payments/relayer-steps.js';
import { actingAs, paymentBody, startHarness, type Harness, type TestMerchant } from '../support/harness.js';

/**
 * A payment's detail tells its history as its transitions recorded it: `pending` at creation, then
 * every status it entered, in order, each at the time of its transition; a refused transition and
 * facts noted without a move add nothing.
 */
describe('payment status history (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let other: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ wallet: true });
    other = await h.seedMerchant({ wallet: true });
  });
  after(() => h?.close());

  const newPayment = async (): Promise<string> => {
    const res = await h.call('POST', '/payments/create-public', { body: paymentBody(shop) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.paymentId as string;
  };
  const history = async (id: string, caller: 'api_key' | 'user' = 'api_key') => {
    const path = caller === 'user' ? `/payments/${id}` : `/payments/api/${id}`;
    const res = await h.call('GET', path, { ...actingAs(shop), caller });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.status_history as PaymentStatusChange[];
  };
  const statuses = (changes: PaymentStatusChange[]) => changes.map((c) => c.status);

  it('starts with pending at the creation time', async () => {
    const id = await newPayment();
    const res = await h.call('GET', `/payments/api/${id}`, actingAs(shop));
    expect(res.body.data.status_history).to.deep.equal([{ status: 'pending', at: res.body.data.created_at }]);
  });

  it('records each status the relayer flow walks through, then completion, on both detail views', async () => {
    const id = await newPayment();
    await h.context.db.transaction((trx) =>
      advanceRelayedPaymentIn(h.context, trx, id, 'ready_to_mint', { cctpAttestationStatus: 'complete' }),
    );
    // Noting a fact in the status it is in is no move.
    await h.context.db.transaction((trx) =>
      advanceRelayedPaymentIn(h.context, trx, id, 'ready_to_mint', { cctpAttestationStatus: 'complete' }),
    );
    await advanceCrossChainPayment(h.context, id, 'minted_pending_transfer');
    await completePayment(h.context, id);
    // Completing twice changes nothing and records nothing.
    await completePayment(h.context, id);

    const api = await history(id);
    expect(statuses(api)).to.deep.equal([
      'pending',
      'pending_attestation',
      'ready_to_mint',
      'minted_pending_transfer',
      'completed',
    ]);
    const times = api.map((c) => Date.parse(c.at));
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    const completedAt = (await h.call('GET', `/payments/${id}`, { ...actingAs(shop), caller: 'user' })).body
      .data.completed_at as string;
    expect(api.at(-1)!.at).to.equal(completedAt);
    expect(await history(id, 'user')).to.deep.equal(api);
  });

  it('records a failure once, and a refused move not at all', async () => {
    const id = await newPayment();
    await failPayment(h.context, id, 'reverted');
    let refused: unknown;
    try {
      await completePayment(h.context, id);
    } catch (err) {
      refused = err;
    }
    expect(refused, 'a failed payment cannot complete').to.be.instanceOf(Error);
    expect(statuses(await history(id))).to.deep.equal(['pending', 'failed']);
  });

  it("is not shown for another merchant's payment", async () => {
    const id = await newPayment();
    const res = await h.call('GET', `/payments/api/${id}`, actingAs(other));
    expect(res.status).to.equal(404);
  });
});

import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { CreateCheckoutSessionBody, CreatePublicPaymentBody } from '@stablepay/contracts';
import { expireDueSessions } from '../../src/checkout/session-expiry.js';
import { createCheckoutSession } from '../../src/checkout/sessions.js';
import { paymentsRecording, type PaymentsContext } from '../../src/context.js';
import { createPublicPayment } from '../../src/payments/create-payment.js';
import { completePayment, failPayment } from '../../src/payments/payment-state.js';
import { addMerchant, backends, migrated, testContext } from '../support/backends.js';

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

/**
 * Nothing in payments wakes the outbox relay by hand: whatever writes an event wakes it once its
 * transaction commits, and a transaction that wrote none (or rolled back) does not.
 */
for (const backend of backends) {
  describe(`outbox relay woken on commit on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: Knex;
    let close: () => Promise<void>;
    let wakes = 0;
    const ctx = (): PaymentsContext =>
      testContext(
        db,
        paymentsRecording(() => wakes++),
      );
    const woken = async (work: () => Promise<unknown>): Promise<number> => {
      const before = wakes;
      await work();
      await new Promise((r) => setImmediate(r));
      return wakes - before;
    };
    const report = (publicId: string) =>
      CreatePublicPaymentBody.parse({
        merchantId: publicId,
        txHash: hex(32),
        amount: '12.5',
        expectedAmount: '12.5',
        token: 'USDC',
        chainId: 31337,
        fromAddress: hex(20),
        toAddress: hex(20),
        customerEmail: 'buyer@example.test',
      });

    before(async () => {
      ({ db, close } = await backend.open());
      await migrated(db);
    });
    after(async () => close?.());

    it('wakes once per committed change that wrote events, never for a refused one', async () => {
      const m = await addMerchant(db);
      let paymentId = '';
      expect(
        await woken(async () => {
          paymentId = (await createPublicPayment(ctx(), report(m.publicId))).payment.id;
        }),
      ).to.equal(1);
      expect(await woken(() => completePayment(ctx(), paymentId, { receivedAmount: '12.5' }))).to.equal(1);
      // A repeated completion changes nothing and writes nothing; a failure after it is refused.
      expect(await woken(() => completePayment(ctx(), paymentId))).to.equal(0);
      const refused = () =>
        failPayment(ctx(), paymentId, 'reverted').then(
          () => expect.fail('a completed payment cannot fail'),
          (err: { status?: number }) => expect(err.status).to.equal(409),
        );
      expect(await woken(refused)).to.equal(0);
    });

    it('wakes after a sweep that expired sessions, not after one that found none', async () => {
      const m = await addMerchant(db);
      const body = CreateCheckoutSessionBody.parse({ return_url: 'https://shop.test/back' });
      const { session } = await createCheckoutSession(ctx(), m.merchantId, body);
      expect(await woken(() => expireDueSessions(ctx(), { id: session.id }))).to.equal(0);
      await db('checkout_sessions')
        .where({ id: session.id })
        .update({ expires_at: db.raw(`now() - interval '1 second'`) });
      expect(await woken(() => expireDueSessions(ctx(), { id: session.id }))).to.equal(1);
    });
  });
}

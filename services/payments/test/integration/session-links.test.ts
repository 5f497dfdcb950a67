import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  CreateCheckoutSessionBody,
  CreatePublicPaymentBody,
  PaymentCompletedData,
  decimalToBaseUnits,
} from '@stablepay/contracts';
import { Wallet } from 'ethers';
import { expireDueSessions } from '../../src/checkout/session-expiry.js';
import { qrAmount, qrTagUnits } from '../../src/checkout/session-link.js';
import { createCheckoutSession } from '../../src/checkout/sessions.js';
import { findSession } from '../../src/checkout/sessions-repo.js';
import { createPublicPayment } from '../../src/payments/create-payment.js';
import { completePayment } from '../../src/payments/payment-state.js';
import { findPaymentByTxHash } from '../../src/payments/payments-repo.js';
import { addMerchant, backends, migrated } from '../support/backends.js';
import { addr, domainHelpers, hash, rejects } from '../support/domain-suite.js';
import { proveSession } from '../support/session-proof.js';

for (const backend of backends) {
  describe(`checkout session links and expiry on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: Knex;
    let close: () => Promise<void>;
    const { ctx, openSession, body, outbox } = domainHelpers(() => db);

    before(async () => {
      ({ db, close } = await backend.open());
      await migrated(db);
      await migrated(db); // a second run finds nothing to do
    });
    after(async () => close?.());

    it('links one payment per session and rolls back the loser entirely', async () => {
      const m = await addMerchant(db);
      const { session } = await createCheckoutSession(
        ctx(),
        m.merchantId,
        CreateCheckoutSessionBody.parse({ amount: '12.5', return_url: 'https://x.test/r' }),
      );
      const first = await createPublicPayment(ctx(), body(m.publicId, { sessionId: session.id }));
      expect(first.created).to.equal(true);
      const loser = body(m.publicId, { sessionId: session.id });
      await rejects(createPublicPayment(ctx(), loser), 409);
      expect(await db('payments').where({ tx_hash: loser.txHash }).first()).to.equal(undefined);
      // the same txHash again, now naming another session: the existing payment, nothing linked
      const { session: second } = await createCheckoutSession(
        ctx(),
        m.merchantId,
        CreateCheckoutSessionBody.parse({ return_url: 'https://x.test/r' }),
      );
      const replay = await createPublicPayment(ctx(), {
        ...body(m.publicId, { sessionId: second.id }),
        txHash: first.payment.txHash,
      });
      expect(replay).to.deep.include({ created: false });
      expect(replay.payment.id).to.equal(first.payment.id);
      expect((await findSession(db, second.id))!.paymentId).to.equal(null);
    });

    it('refuses a session of another merchant, a mismatched amount or currency, and an expired one', async () => {
      const m = await addMerchant(db);
      const other = await addMerchant(db);
      const make = async (merchantId: string, o: Record<string, unknown> = {}) =>
        (
          await createCheckoutSession(
            ctx(),
            merchantId,
            CreateCheckoutSessionBody.parse({ amount: '12.5', return_url: 'https://x.test/r', ...o }),
          )
        ).session;
      await rejects(
        createPublicPayment(ctx(), body(m.publicId, { sessionId: (await make(other.merchantId)).id })),
        404,
      );
      await rejects(
        createPublicPayment(ctx(), body(m.publicId, { sessionId: `cs_live_${randomUUID()}` })),
        404,
      );
      await rejects(
        createPublicPayment(
          ctx(),
          body(m.publicId, {
            sessionId: (await make(m.merchantId)).id,
            amount: '12.4',
            expectedAmount: '12.4',
          }),
        ),
        400,
      );
      await rejects(
        createPublicPayment(
          ctx(),
          body(m.publicId, { sessionId: (await make(m.merchantId, { currency: 'EURC' })).id }),
        ),
        400,
      );
      const due = await make(m.merchantId);
      await db('checkout_sessions')
        .where({ id: due.id })
        .update({ expires_at: db.raw(`now() - interval '1 second'`) });
      await rejects(createPublicPayment(ctx(), body(m.publicId, { sessionId: due.id })), 409);
    });

    it('links a session only for its payer: a stranger without the proof or the exact QR amount fails', async () => {
      const m = await addMerchant(db);
      const open = () => openSession(m.merchantId);
      const mine = await open();
      const payer = Wallet.createRandom();
      // The customer's transfer, as a stranger would report it into the stranger's own session.
      const theirs = await open();
      const transfer = { txHash: hash(), fromAddress: payer.address };
      const stranger = (o: Record<string, unknown>) =>
        CreatePublicPaymentBody.parse({ ...body(m.publicId), ...transfer, sessionId: theirs.id, ...o });
      const code = async (p: Promise<unknown>) =>
        p.then(
          () => 'accepted',
          (err: { details?: Array<{ code?: string }> }) => err.details?.[0]?.code,
        );
      expect(await code(createPublicPayment(ctx(), stranger({})))).to.equal('session_proof_required');
      const forged = proveSession({ ...stranger({}), sessionProof: undefined }, Wallet.createRandom());
      expect(
        await code(createPublicPayment(ctx(), CreatePublicPaymentBody.parse({ ...forged, ...transfer }))),
      ).to.equal('session_proof_invalid');
      // The payer's genuine proof is for the payer's session, not for any other.
      const genuine = proveSession({ ...body(m.publicId), ...transfer, sessionId: mine.id }, payer);
      expect(
        await code(
          createPublicPayment(ctx(), CreatePublicPaymentBody.parse({ ...genuine, sessionId: theirs.id })),
        ),
      ).to.equal('session_proof_invalid');
      expect(await findPaymentByTxHash(db, transfer.txHash)).to.equal(undefined);

      const { payment } = await createPublicPayment(ctx(), CreatePublicPaymentBody.parse(genuine));
      expect(payment.sessionId).to.equal(mine.id);
      await completePayment(ctx(), payment.id, { receivedAmount: '12.500000' });
      expect((await findSession(db, mine.id))!.status).to.equal('complete');
      expect((await findSession(db, theirs.id))!.status).to.equal('open');
    });

    it("a stranger's earlier report does not keep the customer's session or stand as the customer, and an older transfer pays no session", async () => {
      const m = await addMerchant(db);
      const open = () => openSession(m.merchantId);
      const payer = Wallet.createRandom();
      const shopWallet = addr();
      const transfer = () => ({ txHash: hash(), fromAddress: payer.address, toAddress: shopWallet });
      // The attacker reports the customer's transfer first, without a session, as someone else.
      const reportFirst = async (t: ReturnType<typeof transfer>) =>
        createPublicPayment(
          ctx(),
          body(m.publicId, { ...t, customerEmail: 'watcher@evil.test', reference: 'not-yours' }),
        );
      const claim = (t: ReturnType<typeof transfer>, sessionId: string) =>
        CreatePublicPaymentBody.parse(
          proveSession(
            { ...body(m.publicId), ...t, sessionId, customerEmail: 'buyer@shop.test', reference: 'order-1' },
            payer,
          ),
        );

      const first = transfer();
      const mine = await open();
      await reportFirst(first);
      const linked = await createPublicPayment(ctx(), claim(first, mine.id));
      expect(linked.created).to.equal(false);
      expect(linked.payment).to.deep.include({
        sessionId: mine.id,
        customerEmail: 'buyer@shop.test',
        reference: 'order-1',
      });
      await completePayment(ctx(), linked.payment.id, { receivedAmount: '12.500000', minedAt: new Date() });
      expect((await findSession(db, mine.id))!.status).to.equal('complete');
      const [done] = await outbox('payment.completed', 'payment_id', linked.payment.id);
      expect(PaymentCompletedData.parse(done.data)).to.deep.include({ reference: 'order-1' });

      // A transfer verified as mined an hour before the session existed cannot be claimed for it...
      const old = transfer();
      const recorded = await reportFirst(old);
      await completePayment(ctx(), recorded.payment.id, {
        receivedAmount: '12.500000',
        minedAt: new Date(Date.now() - 3_600_000),
      });
      const later = await open();
      const refused = await createPublicPayment(ctx(), claim(old, later.id)).then(
        () => undefined,
        (err: { status: number; details?: Array<{ code?: string }> }) => err,
      );
      expect(refused).to.deep.include({ status: 409 });
      expect(refused!.details![0]!.code).to.equal('session_mismatch');
      expect((await findSession(db, later.id))!).to.deep.include({ status: 'open', paymentId: null });
      expect((await findPaymentByTxHash(db, old.txHash))!).to.deep.include({
        sessionId: null,
        customerEmail: 'watcher@evil.test',
      });

      // ...nor, when it was still pending at the claim, once its verdict says so.
      const pending = transfer();
      await reportFirst(pending);
      const next = await open();
      const claimed = await createPublicPayment(ctx(), claim(pending, next.id));
      expect(claimed.payment.sessionId).to.equal(next.id);
      await completePayment(ctx(), claimed.payment.id, {
        receivedAmount: '12.500000',
        minedAt: new Date(Date.now() - 3_600_000),
      });
      expect((await findSession(db, next.id))!).to.deep.include({ status: 'open', paymentId: null });
      expect((await findPaymentByTxHash(db, pending.txHash))!).to.deep.include({
        status: 'completed',
        sessionId: null,
      });
    });

    it('links a QR payment by its exact tagged amount, and frees the session when another amount arrived', async () => {
      const m = await addMerchant(db);
      const { session } = await createCheckoutSession(
        ctx(),
        m.merchantId,
        CreateCheckoutSessionBody.parse({ amount: '7', return_url: 'https://x.test/r' }),
      );
      const tagged = qrAmount(session, '7.000000');
      expect(decimalToBaseUnits(tagged) - 7_000_000n).to.equal(qrTagUnits(session.id));
      const qr = (o: Record<string, unknown>) =>
        CreatePublicPaymentBody.parse({
          ...body(m.publicId),
          amount: '7',
          expectedAmount: tagged,
          sessionId: session.id,
          ...o,
        });
      await rejects(createPublicPayment(ctx(), qr({ expectedAmount: '7' })), 400);
      const { payment } = await createPublicPayment(ctx(), qr({}));
      // A larger transfer than the tag asks for is someone else's: the payment stands, the session is free.
      await completePayment(ctx(), payment.id, { receivedAmount: '50.000000' });
      expect((await findSession(db, session.id))!).to.deep.include({ status: 'open', paymentId: null });
      const exact = await createPublicPayment(ctx(), qr({}));
      await completePayment(ctx(), exact.payment.id, { receivedAmount: tagged });
      expect((await findSession(db, session.id))!.status).to.equal('complete');
    });

    it('expires only open, unpaid, due sessions, once', async () => {
      const m = await addMerchant(db);
      const make = async () =>
        (
          await createCheckoutSession(
            ctx(),
            m.merchantId,
            CreateCheckoutSessionBody.parse({ return_url: 'https://x.test/r' }),
          )
        ).session;
      const [due, paid, notYet] = [await make(), await make(), await make()];
      await createPublicPayment(ctx(), body(m.publicId, { sessionId: paid.id }));
      await db('checkout_sessions')
        .whereIn('id', [due.id, paid.id])
        .update({ expires_at: db.raw(`now() - interval '1 second'`) });
      expect(await expireDueSessions(ctx())).to.be.at.least(1);
      expect(await expireDueSessions(ctx())).to.equal(0);
      expect((await findSession(db, due.id))!.status).to.equal('expired');
      expect((await findSession(db, paid.id))!.status).to.equal('open');
      expect((await findSession(db, notYet.id))!.status).to.equal('open');
      expect(await outbox('checkout.session.expired', 'sessionId', due.id)).to.have.length(1);
    });
  });
}

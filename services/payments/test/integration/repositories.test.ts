import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  CheckoutSessionCompletedData,
  CreateCheckoutSessionBody,
  CreatePublicPaymentBody,
  PaymentCompletedData,
  PaymentFailedData,
  decimalToBaseUnits,
} from '@stablepay/contracts';
import { Wallet } from 'ethers';
import { isAppError } from '@stablepay/platform';
import { completePayment, failPayment } from '../../src/payments/payment-state.js';
import { advanceCrossChainPayment } from '../../src/payments/relayer-steps.js';
import { assignWallet, findMerchantById, upsertMerchant } from '../../src/merchants/merchants-repo.js';
import {
  findPaymentByTxHash,
  insertPaymentIfNew,
  listPayments,
  type NewPaymentRow,
} from '../../src/payments/payments-repo.js';
import { findSession } from '../../src/checkout/sessions-repo.js';
import { createCheckoutSession } from '../../src/checkout/sessions.js';
import { expireDueSessions } from '../../src/checkout/session-expiry.js';
import { createPublicPayment } from '../../src/payments/create-payment.js';
import { qrAmount, qrTagUnits } from '../../src/checkout/session-link.js';
import { signQuote } from '../../src/fee-quote/signature.js';
import { TEST_FEE_QUOTE_KEY, addMerchant, backends, migrated, testContext } from '../support/backends.js';
import { proveSession } from '../support/session-proof.js';

const hash = () => `0x${randomBytes(32).toString('hex')}`;
/** A quote of the legacy relayer flow, the one that walks the intermediate cross-chain states. */
const relayerFeeQuote = signQuote(TEST_FEE_QUOTE_KEY, {
  productPrice: 12.5,
  amountToBurn: 12.7,
  feeGas: 0.1,
  feeCircle: 0.1,
  feeTotal: 0.2,
  totalUserPays: 12.7,
  merchantReceives: 12.5,
  destinationChain: 'BASE',
  validUntil: 1_900_000_000,
  validForSeconds: 300,
  quoteId: '0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61',
  breakdown: { gasEstimateUSD: 0.05, gasWithBuffer: 0.06, minGasFee: 0.1, bufferPercent: 20 },
});
const addr = () => `0x${randomBytes(20).toString('hex')}`;

const rejects = async (p: Promise<unknown>, status: number): Promise<void> => {
  try {
    await p;
  } catch (err) {
    expect(isAppError(err), String(err)).to.equal(true);
    expect((err as { status: number }).status).to.equal(status);
    return;
  }
  expect.fail(`expected a ${status} error`);
};

for (const backend of backends) {
  describe(`payments repositories and state machines on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: Knex;
    let close: () => Promise<void>;
    const ctx = () => testContext(db);

    before(async () => {
      ({ db, close } = await backend.open());
      await migrated(db);
      await migrated(db); // a second run finds nothing to do
    });
    after(async () => close?.());

    const row = (merchantId: string, o: Partial<NewPaymentRow> = {}): NewPaymentRow => ({
      id: randomUUID(),
      merchant_id: merchantId,
      tx_hash: hash(),
      amount: '10.000000',
      expected_amount: '10.000000',
      currency: 'USDC',
      status: 'pending',
      from_address: addr(),
      to_address: addr(),
      source_chain: 'BASE',
      source_chain_id: 8453,
      destination_chain: null,
      destination_chain_id: null,
      is_cross_chain: false,
      bridge_provider: null,
      burn_tx_hash: null,
      mint_tx_hash: null,
      fee_quote: null,
      customer_email: 'buyer@example.test',
      reference: null,
      description: null,
      metadata: '{}',
      ...o,
    });

    /** An open checkout session of 12.5 USDC for the merchant. */
    const openSession = async (merchantId: string) =>
      (
        await createCheckoutSession(
          ctx(),
          merchantId,
          CreateCheckoutSessionBody.parse({ amount: '12.5', return_url: 'https://x.test/r' }),
        )
      ).session;

    // A session payment comes with the payer's proof, as the checkout page sends it.
    const body = (publicId: string, o: Record<string, unknown> = {}) =>
      CreatePublicPaymentBody.parse(
        proveSession({
          merchantId: publicId,
          txHash: hash(),
          amount: '12.5',
          expectedAmount: '12.5',
          token: 'USDC',
          chainId: 31337,
          fromAddress: addr(),
          toAddress: addr(),
          customerEmail: 'buyer@example.test',
          ...o,
        }),
      );

    const outbox = async (type: string, key: string, value: string) =>
      (await db('outbox').where({ type }))
        .filter((r) => {
          const env = typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope;
          return env.data[key] === value;
        })
        .map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope));

    it('projects merchants idempotently and refuses a wallet for an unknown merchant', async () => {
      const m = await addMerchant(db);
      await upsertMerchant(db, {
        merchantId: m.merchantId,
        publicId: m.publicId,
        name: 'Renamed',
        blockchain: 'BASE',
        acceptedCurrencies: ['USDC'],
        email: 'x',
      });
      const found = await findMerchantById(db, m.merchantId);
      expect(found).to.deep.include({ name: 'Renamed', acceptedCurrencies: ['USDC'], wallet: null });
      const wallet = { walletId: randomUUID(), address: addr(), blockchain: 'BASE' as const, chainId: 8453 };
      expect(await assignWallet(db, { merchantId: randomUUID(), ...wallet })).to.equal(false);
      expect(await assignWallet(db, { merchantId: m.merchantId, ...wallet })).to.equal(true);
      expect((await findMerchantById(db, m.merchantId))!.wallet).to.deep.equal({
        id: wallet.walletId,
        address: wallet.address,
        blockchain: 'BASE',
        chainId: 8453,
      });
    });

    it('inserts a payment once per tx_hash and keeps amounts exact', async () => {
      const m = await addMerchant(db);
      const first = row(m.merchantId, { amount: '999999.999999', expected_amount: '0.100000' });
      const inserted = await insertPaymentIfNew(db, first);
      expect(inserted).to.deep.include({
        amount: '999999.999999',
        expectedAmount: '0.100000',
        status: 'pending',
      });
      expect(await insertPaymentIfNew(db, { ...first, id: randomUUID() })).to.equal(undefined);
    });

    it('lists with filters, escaped search, whitelisted sort, stable order and totals', async () => {
      const m = await addMerchant(db);
      const other = await addMerchant(db);
      await insertPaymentIfNew(db, row(other.merchantId, { reference: 'order_100%' }));
      const amounts = ['5.000000', '1.000000', '5.000000', '3.000000'];
      for (const [i, amount] of amounts.entries()) {
        await insertPaymentIfNew(
          db,
          row(m.merchantId, {
            amount,
            reference: i === 0 ? 'order_100%' : `orderX100${i}`,
            currency: i === 3 ? 'EURC' : 'USDC',
            status: i === 1 ? 'ready_to_mint' : 'pending',
          }),
        );
      }
      const base = {
        merchantId: m.merchantId,
        sortBy: 'created_at' as const,
        sortDirection: 'desc' as const,
        limit: 50,
        offset: 0,
      };
      expect((await listPayments(db, base)).total).to.equal(4);
      const literal = await listPayments(db, { ...base, search: '_100%' });
      expect(literal.payments.map((p) => p.reference)).to.deep.equal(['order_100%']);
      expect((await listPayments(db, { ...base, search: 'ORDER' })).total).to.equal(4);
      expect((await listPayments(db, { ...base, currency: 'EURC' })).total).to.equal(1);
      expect((await listPayments(db, { ...base, statuses: ['ready_to_mint'] })).total).to.equal(1);
      const byAmount = await listPayments(db, { ...base, sortBy: 'amount', sortDirection: 'asc' });
      expect(byAmount.payments.map((p) => p.amount)).to.deep.equal([
        '1.000000',
        '3.000000',
        '5.000000',
        '5.000000',
      ]);
      const fives = byAmount.payments.slice(2).map((p) => p.id);
      expect(fives).to.deep.equal([...fives].sort());
      const page = await listPayments(db, {
        ...base,
        sortBy: 'amount',
        sortDirection: 'asc',
        limit: 2,
        offset: 2,
      });
      expect(page.total).to.equal(4);
      expect(page.payments.map((p) => p.id)).to.deep.equal(fives);
      const future = new Date(Date.now() + 60_000);
      expect((await listPayments(db, { ...base, createdAfter: future })).total).to.equal(0);
      expect((await listPayments(db, { ...base, createdBefore: future })).total).to.equal(4);
    });

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

    it('completes a payment with its session and writes both events once', async () => {
      const m = await addMerchant(db);
      const { session } = await createCheckoutSession(
        ctx(),
        m.merchantId,
        CreateCheckoutSessionBody.parse({ return_url: 'https://x.test/r' }),
      );
      const { payment } = await createPublicPayment(
        ctx(),
        body(m.publicId, { sessionId: session.id, reference: 'r-1' }),
      );
      const done = await completePayment(ctx(), payment.id, { receivedAmount: '12.500000' });
      expect(done.changed).to.equal(true);
      expect(done.payment).to.deep.include({ status: 'completed', receivedAmount: '12.500000' });
      expect((await findSession(db, session.id))!.status).to.equal('complete');
      const again = await completePayment(ctx(), payment.id);
      expect(again.changed).to.equal(false);
      const [completed, ...more] = await outbox('payment.completed', 'payment_id', payment.id);
      expect(more).to.have.length(0);
      const data = PaymentCompletedData.parse(completed.data);
      expect(data).to.deep.include({
        status: 'completed',
        amount: '12.500000',
        reference: 'r-1',
        merchant_id: m.merchantId,
        destination_chain: null,
      });
      const sessionEvents = await outbox('checkout.session.completed', 'sessionId', session.id);
      expect(sessionEvents).to.have.length(1);
      expect(CheckoutSessionCompletedData.parse(sessionEvents[0].data)).to.deep.include({
        paymentId: payment.id,
        amount: '12.500000',
      });
      await rejects(failPayment(ctx(), payment.id, 'late'), 409);
      await rejects(completePayment(ctx(), randomUUID()), 404);
    });

    it('fails a payment, releases its session and lets another payment take it', async () => {
      const m = await addMerchant(db);
      const { session } = await createCheckoutSession(
        ctx(),
        m.merchantId,
        CreateCheckoutSessionBody.parse({ amount: '12.5', return_url: 'https://x.test/r' }),
      );
      const { payment } = await createPublicPayment(ctx(), body(m.publicId, { sessionId: session.id }));
      const failed = await failPayment(ctx(), payment.id, 'Transaction reverted');
      expect(failed.payment).to.deep.include({ status: 'failed', failureReason: 'Transaction reverted' });
      const [event] = await outbox('payment.failed', 'payment_id', payment.id);
      expect(PaymentFailedData.parse(event.data)).to.deep.include({
        status: 'failed',
        failure_reason: 'Transaction reverted',
      });
      expect((await findSession(db, session.id))!.paymentId).to.equal(null);
      const retry = await createPublicPayment(ctx(), body(m.publicId, { sessionId: session.id }));
      expect(retry.created).to.equal(true);
      expect((await findSession(db, session.id))!.paymentId).to.equal(retry.payment.id);
      await rejects(completePayment(ctx(), payment.id), 409);
    });

    it('walks the legacy cross-chain states in order only', async () => {
      const m = await addMerchant(db);
      const { payment } = await createPublicPayment(
        ctx(),
        body(m.publicId, {
          isCrossChain: true,
          expectedAmount: undefined,
          destinationChainId: 31337,
          feeQuote: relayerFeeQuote,
        }),
      );
      await advanceCrossChainPayment(ctx(), payment.id, 'pending_attestation', {
        cctpAttestationStatus: 'pending_confirmations',
      });
      await rejects(advanceCrossChainPayment(ctx(), payment.id, 'minted_pending_transfer'), 409);
      await advanceCrossChainPayment(ctx(), payment.id, 'ready_to_mint', {
        cctpAttestationStatus: 'complete',
      });
      await advanceCrossChainPayment(ctx(), payment.id, 'minted_pending_transfer', { mintTxHash: hash() });
      const transfer = hash();
      const done = await completePayment(ctx(), payment.id, { merchantTransferTxHash: transfer });
      expect(done.payment).to.deep.include({
        status: 'completed',
        cctpAttestationStatus: 'complete',
        merchantTransferTxHash: transfer,
      });
      const [event] = await outbox('payment.completed', 'payment_id', payment.id);
      expect(event.data).to.deep.include({
        is_cross_chain: true,
        destination_chain: 'BASE',
        merchant_transfer_tx_hash: transfer,
      });
    });

    it('lets a fee quote pay for one payment only, and a refused payment leaves it unspent', async () => {
      const m = await addMerchant(db);
      const quote = signQuote(TEST_FEE_QUOTE_KEY, {
        ...relayerFeeQuote,
        productPrice: 3,
        merchantReceives: 3,
      });
      const crossChain = (o: Record<string, unknown> = {}) =>
        body(m.publicId, {
          isCrossChain: true,
          amount: '3',
          expectedAmount: undefined,
          feeQuote: quote,
          ...o,
        });
      await rejects(createPublicPayment(ctx(), crossChain({ amount: '3.01' })), 400);
      const first = await createPublicPayment(ctx(), crossChain());
      expect(first.created).to.equal(true);
      const second = crossChain();
      await rejects(createPublicPayment(ctx(), second), 409);
      expect(await db('payments').where({ tx_hash: second.txHash })).to.have.length(0);
      expect(await db('fee_quote_uses').where({ signature: quote.signature })).to.deep.equal([
        {
          signature: quote.signature,
          payment_id: first.payment.id,
          valid_until: new Date(quote.validUntil * 1000),
          created_at: first.payment.createdAt,
        },
      ]);
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

import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  CheckoutSessionCompletedData,
  CreateCheckoutSessionBody,
  PaymentCompletedData,
  PaymentFailedData,
} from '@stablepay/contracts';
import { createCheckoutSession } from '../../src/checkout/sessions.js';
import { findSession } from '../../src/checkout/sessions-repo.js';
import { signQuote } from '../../src/fee-quote/signature.js';
import { assignWallet, findMerchantById, upsertMerchant } from '../../src/merchants/merchants-repo.js';
import { createPublicPayment } from '../../src/payments/create-payment.js';
import { completePayment, failPayment } from '../../src/payments/payment-state.js';
import { insertPaymentIfNew, listPayments } from '../../src/payments/payments-repo.js';
import { advanceCrossChainPayment } from '../../src/payments/relayer-steps.js';
import { TEST_FEE_QUOTE_KEY, addMerchant, backends, migrated } from '../support/backends.js';
import { addr, domainHelpers, hash, rejects, relayerFeeQuote } from '../support/domain-suite.js';

for (const backend of backends) {
  describe(`payments repositories and state machines on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: Knex;
    let close: () => Promise<void>;
    const { ctx, row, body, outbox } = domainHelpers(() => db);

    before(async () => {
      ({ db, close } = await backend.open());
      await migrated(db);
      await migrated(db); // a second run finds nothing to do
    });
    after(async () => close?.());

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
  });
}

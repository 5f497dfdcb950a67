import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TransferAuthorization } from '@stablepay/contracts';
import {
  claimPayerAllowance,
  findAuthorizedPayment,
  recordRelayedTransaction,
} from '../../src/gasless/gasless-repo.js';
import { insertPaymentIfNew } from '../../src/payments/payments-repo.js';
import { addMerchant, backends, migrated } from '../support/backends.js';
import { addr, domainHelpers, hash } from '../support/domain-suite.js';

const authorizationOf = (from: string, nonce = hash()): TransferAuthorization => ({
  from,
  to: addr(),
  value: '25000000',
  validAfter: '0',
  validBefore: '1900000000',
  nonce,
  signature: `0x${'ab'.repeat(65)}`,
});

for (const backend of backends) {
  describe(`gasless payment records on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: Knex;
    let close: () => Promise<void>;
    const { row } = domainHelpers(() => db);

    before(async () => {
      ({ db, close } = await backend.open());
      await migrated(db);
    });
    after(async () => close?.());

    /** A gasless payment row as create-gasless writes it: no transaction yet. */
    const gaslessRow = (merchantId: string, a: TransferAuthorization) =>
      row(merchantId, {
        tx_hash: '',
        source_chain_id: 31337,
        from_address: a.from,
        funding: 'authorization',
        signed_authorization: JSON.stringify(a),
        authorization_nonce: a.nonce.toLowerCase(),
        network_fee: '0.540000',
        cctp_fee: '0.000000',
        fee_bearer: 'customer',
      });

    it('keeps one payment per chain, payer and nonce, and many without a transaction yet', async () => {
      const m = await addMerchant(db);
      const payer = addr();
      const a = authorizationOf(payer);
      const first = await insertPaymentIfNew(db, gaslessRow(m.merchantId, a));
      expect(first).to.deep.include({ txHash: '', funding: 'authorization' });
      expect(first!.gasless).to.deep.equal({
        authorization: a,
        networkFee: '0.540000',
        cctpFee: '0.000000',
        feeBearer: 'customer',
      });
      // The same authorization, the payer's address in other letters: not a second payment.
      const same = { ...a, from: payer.toUpperCase().replace('0X', '0x') };
      expect(await insertPaymentIfNew(db, gaslessRow(m.merchantId, same))).to.equal(undefined);
      expect((await findAuthorizedPayment(db, m.merchantId, 31337, same))!.id).to.equal(first!.id);
      // Another nonce of the same payer and merchant: another payment, also with tx_hash ''.
      const second = await insertPaymentIfNew(db, gaslessRow(m.merchantId, authorizationOf(payer)));
      expect(second).to.not.equal(undefined);
      // Once failed, the nonce is free for a new signature; the old one still finds its payment.
      await db('payments').where({ id: first!.id }).update({ status: 'failed' });
      const renewed = { ...a, validAfter: '1', signature: `0x${'cd'.repeat(65)}` };
      expect(await findAuthorizedPayment(db, m.merchantId, 31337, renewed)).to.equal(undefined);
      expect((await findAuthorizedPayment(db, m.merchantId, 31337, a))!.id).to.equal(first!.id);
      const retry = await insertPaymentIfNew(db, gaslessRow(m.merchantId, renewed));
      expect(retry).to.not.equal(undefined);
      expect((await findAuthorizedPayment(db, m.merchantId, 31337, renewed))!.id).to.equal(retry!.id);
    });

    it("records the relay's transaction only while the payment is pending, and counts a payer's payments", async () => {
      const m = await addMerchant(db);
      const payer = addr();
      const p = (await insertPaymentIfNew(db, gaslessRow(m.merchantId, authorizationOf(payer))))!;
      const relayed = { paymentId: p.id, merchantId: m.merchantId, chainId: 31337, txHash: hash() };
      expect(await recordRelayedTransaction(db, { ...relayed, chainId: 1 })).to.equal(false);
      expect(await recordRelayedTransaction(db, relayed)).to.equal(true);
      await db('payments').where({ id: p.id }).update({ status: 'completed' });
      expect(await recordRelayedTransaction(db, { ...relayed, txHash: hash() })).to.equal(false);
      expect((await db('payments').where({ id: p.id }).first()).tx_hash).to.equal(relayed.txHash);
      // Counted with the payment its own transaction has just inserted: two pass, a third does not.
      await db.transaction(async (trx) => {
        await insertPaymentIfNew(trx, gaslessRow(m.merchantId, authorizationOf(payer)));
        await claimPayerAllowance(trx, payer, 2);
      });
      const refused = await db
        .transaction(async (trx) => {
          await insertPaymentIfNew(trx, gaslessRow(m.merchantId, authorizationOf(payer)));
          await claimPayerAllowance(trx, payer.toUpperCase(), 2);
        })
        .then(
          () => undefined,
          (err: { status?: number }) => err,
        );
      expect(refused?.status).to.equal(429);
      expect(await db('payments').whereRaw('lower(from_address) = ?', [payer.toLowerCase()])).to.have.length(
        2,
      );
    });
  });
}

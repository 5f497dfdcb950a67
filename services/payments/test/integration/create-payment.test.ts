import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@stablepay/platform/testing';
import {
  paymentBody,
  randomAddress,
  randomTxHash,
  startHarness,
  type Harness,
  type TestMerchant,
} from '../support/harness.js';

describe('POST /payments/create-public (PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let h: Harness;
  let shop: TestMerchant;
  let walletShop: TestMerchant;

  before(async () => {
    h = await startHarness();
    shop = await h.seedMerchant({ currencies: ['USDC'] });
    walletShop = await h.seedMerchant({ wallet: true });
  });
  after(async () => h?.close());

  const create = (body: unknown) => h.call('POST', '/payments/create-public', { body });
  const paths = (res: { body: any }) => (res.body.details as Array<{ path: string }>).map((d) => d.path);

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['merchantId form', { merchantId: 'merchant-1' }, 'merchantId'],
      ['txHash form', { txHash: '0x1234' }, 'txHash'],
      ['amount below 0.01', { amount: 0.001 }, 'amount'],
      ['amount above 1,000,000', { amount: 1_000_000.01 }, 'amount'],
      ['amount with 7 decimals', { amount: '1.0000001' }, 'amount'],
      ['amount missing', { amount: undefined }, 'amount'],
      ['token not USDC/EURC', { token: 'USDT' }, 'token'],
      ['chainId not a number', { chainId: '8453' }, 'chainId'],
      ['fromAddress form', { fromAddress: '0xnothex' }, 'fromAddress'],
      ['toAddress missing', { toAddress: undefined }, 'toAddress'],
      ['customerEmail missing', { customerEmail: undefined }, 'customerEmail'],
      ['customerEmail not an email', { customerEmail: 'nobody' }, 'customerEmail'],
      ['customerEmail over 255 chars', { customerEmail: `${'a'.repeat(250)}@x.test` }, 'customerEmail'],
      ['reference over 255 chars', { reference: 'r'.repeat(256) }, 'reference'],
      ['description over 500 chars', { description: 'd'.repeat(501) }, 'description'],
      ['metadata over 10 KB', { metadata: { blob: 'x'.repeat(10_300) } }, 'metadata'],
      ['expectedAmount missing for same-chain', { expectedAmount: undefined }, 'expectedAmount'],
      ['bridgeKit on a same-chain payment', { bridgeKit: { burnTxHash: randomTxHash() } }, 'bridgeKit'],
      [
        'cross-chain without bridgeKit or feeQuote',
        { isCrossChain: true, expectedAmount: undefined },
        'bridgeKit',
      ],
      ['sessionId form', { sessionId: 'session-1' }, 'sessionId'],
    ];
    for (const [name, overrides, field] of cases) {
      it(`rejects ${name} with a detail naming ${field}`, async () => {
        const res = await create(paymentBody(shop, overrides));
        expect(res.status).to.equal(400);
        expect(res.body.success).to.equal(false);
        expect(res.body.error).to.be.a('string');
        expect(paths(res)).to.include(field);
      });
    }

    it('names every bad field at once', async () => {
      const res = await create(paymentBody(shop, { amount: 0, token: 'DAI', customerEmail: 'x' }));
      expect(res.status).to.equal(400);
      expect(paths(res)).to.include.members(['amount', 'token', 'customerEmail']);
    });

    it('answers 400 in the envelope for a body that is not JSON', async () => {
      const res = await h.call('POST', '/payments/create-public', { rawBody: '{' });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ success: false });
    });

    it('answers 404 for an unknown merchant', async () => {
      const res = await create(
        paymentBody({ merchantId: randomUUID(), publicId: `sp_live_${randomUUID()}` }),
      );
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.include({ success: false, error: 'Merchant not found' });
    });

    it('rejects a currency the merchant does not accept', async () => {
      const res = await create(paymentBody(shop, { token: 'EURC' }));
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['token']);
    });

    it('rejects an unknown chain id and accepts configured devnet ids', async () => {
      const res = await create(paymentBody(shop, { chainId: 999 }));
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['chainId']);
      expect((await create(paymentBody(shop, { chainId: 31338 }))).status).to.equal(201);
    });

    it("requires toAddress to be the merchant's wallet, case-insensitively", async () => {
      const wrong = await create(paymentBody(walletShop, { toAddress: randomAddress() }));
      expect(wrong.status).to.equal(400);
      expect(paths(wrong)).to.deep.equal(['toAddress']);
      const upper = `0x${walletShop.wallet!.slice(2).toUpperCase()}`;
      expect((await create(paymentBody(walletShop, { toAddress: upper }))).status).to.equal(201);
    });

    it('refuses cross-chain EURC', async () => {
      const res = await create(
        paymentBody(walletShop, {
          token: 'EURC',
          isCrossChain: true,
          bridgeKit: { burnTxHash: randomTxHash() },
        }),
      );
      expect(res.status).to.equal(400);
      expect(paths(res)).to.deep.equal(['token']);
    });
  });

  describe('idempotency on txHash', () => {
    it('answers 201 first, then 200 with the same payment, whatever the hash case', async () => {
      const body = paymentBody(shop);
      const first = await create(body);
      expect(first.status).to.equal(201);
      expect(first.body).to.deep.equal({
        success: true,
        data: { paymentId: first.body.data.paymentId, status: 'pending', isCrossChain: false },
      });
      const again = await create({ ...body, txHash: String(body.txHash).toUpperCase().replace('0X', '0x') });
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      const rows = await h.db('payments').where({ tx_hash: String(body.txHash) });
      expect(rows).to.have.length(1);
      expect(rows[0].amount).to.equal('25.500000');
    });

    it('creates exactly one row for 50 concurrent identical requests', async () => {
      const body = paymentBody(shop);
      const results = await Promise.all(Array.from({ length: 50 }, () => create(body)));
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      expect(results.filter((r) => r.status === 200)).to.have.length(49);
      expect(new Set(results.map((r) => r.body.data.paymentId)).size).to.equal(1);
      const [{ count }] = await h.db('payments').where({ tx_hash: body.txHash }).count('* as count');
      expect(Number(count)).to.equal(1);
      const events = await h
        .db('outbox')
        .where({ type: 'payment.created' })
        .whereRaw(`envelope->'data'->>'txHash' = ?`, [String(body.txHash)]);
      expect(events).to.have.length(1);
    });

    it('refuses a txHash that completed a payment of another merchant', async () => {
      const body = paymentBody(shop);
      const first = await create(body);
      expect(first.status).to.equal(201);
      await h.db('payments').where({ id: first.body.data.paymentId }).update({ status: 'completed' });
      const other = await create({ ...paymentBody(walletShop), txHash: body.txHash });
      expect(other.status).to.equal(409);
    });

    it("refuses another merchant's spent txHash with 409 before that merchant's own rules run", async () => {
      const body = paymentBody(walletShop, { token: 'EURC' });
      const first = await create(body);
      expect(first.status).to.equal(201);
      await h.db('payments').where({ id: first.body.data.paymentId }).update({ status: 'completed' });
      // shop accepts USDC only and the chain is unknown: a new payment would be a 400 naming both
      const claim = { ...paymentBody(shop, { token: 'EURC', chainId: 999 }), txHash: body.txHash };
      const other = await create(claim);
      expect(other.status).to.equal(409);
      expect(other.body).to.deep.include({
        success: false,
        error: 'Transaction already recorded for another merchant',
      });
      expect(other.body.details).to.deep.equal([
        { path: 'txHash', message: 'This transaction is already recorded', code: 'tx_already_recorded' },
      ]);
      expect(paths(await create({ ...claim, txHash: randomTxHash() }))).to.have.members(['token', 'chainId']);
    });

    it("answers a resubmission from the existing payment although the merchant's settings changed", async () => {
      const merchant = await h.seedMerchant({ wallet: true });
      const body = paymentBody(merchant);
      const first = await create(body);
      expect(first.status).to.equal(201);
      // a new wallet, and USDC no longer accepted
      const wallet = randomAddress();
      await h.publish(
        'wallet.assigned',
        {
          merchantId: merchant.merchantId,
          walletId: randomUUID(),
          address: wallet,
          blockchain: 'BASE',
          chainId: 31337,
        },
        { producer: 'chain-watcher' },
      );
      await h.publish('merchant.created', {
        merchantId: merchant.merchantId,
        publicId: merchant.publicId,
        name: 'Test Shop',
        blockchain: 'BASE',
        acceptedCurrencies: ['EURC'],
        email: 'shop@example.test',
      });
      await waitFor(() =>
        h.db('merchants').where({ merchant_id: merchant.merchantId, wallet_address: wallet }).first(),
      );
      await waitFor(async () => {
        const row = await h.db('merchants').where({ merchant_id: merchant.merchantId }).first();
        return JSON.stringify(row.accepted_currencies) === '["EURC"]';
      });
      const fresh = await create({ ...body, txHash: randomTxHash() });
      expect(fresh.status).to.equal(400);
      expect(paths(fresh)).to.have.members(['token', 'toAddress']);
      const again = await create(body);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
    });
  });

  describe('the merchant remembered between reports', () => {
    it('writes a report in one statement while the merchant is unchanged, and judges it on a fresh read once it changed', async () => {
      const merchant = await h.seedMerchant({ wallet: true });
      const setCurrencies = (currencies: string[]) =>
        h
          .db('merchants')
          .where({ merchant_id: merchant.merchantId })
          .update({ accepted_currencies: JSON.stringify(currencies) });
      const statements: string[] = [];
      const onQuery = (q: { sql: string }) => {
        if (/\bmerchants\b/.test(q.sql)) statements.push(q.sql);
      };
      expect((await create(paymentBody(merchant))).status).to.equal(201);
      h.context.db.on('query', onQuery);
      try {
        expect((await create(paymentBody(merchant))).status).to.equal(201);
        expect(statements, 'one statement: the guarded insert').to.have.length(1);
        expect(statements[0]).to.match(/^with spent/);

        // Changed behind this replica's back, as another replica's projection would: USDC refused.
        await setCurrencies(['EURC']);
        statements.length = 0;
        const refused = await create(paymentBody(merchant));
        expect(refused.status).to.equal(400);
        expect(paths(refused)).to.include('token');
        expect(statements.length, 'the guarded insert, then a fresh read').to.be.greaterThan(1);

        // A refusal on the remembered merchant is judged again on a fresh read: accepted at once.
        await setCurrencies(['USDC', 'EURC']);
        expect((await create(paymentBody(merchant))).status).to.equal(201);
        statements.length = 0;
        expect((await create(paymentBody(merchant))).status).to.equal(201);
        expect(statements).to.have.length(1);
      } finally {
        h.context.db.off('query', onQuery);
      }
      const rows = await h
        .db('payments')
        .where({ merchant_id: merchant.merchantId })
        .count<{ n: string }[]>({ n: '*' });
      expect(Number(rows[0]!.n)).to.equal(4);
    });
  });

  describe('cross-chain', () => {
    it('records a bridge-kit payment with its destination', async () => {
      const burn = randomTxHash();
      const res = await create(
        paymentBody(walletShop, {
          isCrossChain: true,
          expectedAmount: undefined,
          chainId: 31338,
          bridgeKit: { burnTxHash: burn },
        }),
      );
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ status: 'pending', isCrossChain: true });
      const row = await h.db('payments').where({ id: res.body.data.paymentId }).first();
      expect(row).to.include({
        source_chain: 'ARB',
        destination_chain: 'BASE',
        bridge_provider: 'bridge_kit',
        burn_tx_hash: burn,
      });
      expect(row.expected_amount).to.equal(null);
    });
  });

  describe('payment.created', () => {
    it('is published to RabbitMQ through the outbox with the contract data', async () => {
      const observer = await h.observe(['payment.created']);
      try {
        const body = paymentBody(shop, { amount: '10.1', expectedAmount: '10.1', reference: 'order-7' });
        const res = await create(body);
        expect(res.status).to.equal(201);
        const event = await waitFor(async () =>
          observer.messages.find((m) => m.data?.paymentId === res.body.data.paymentId),
        );
        expect(event).to.include({
          type: 'payment.created',
          version: 1,
          producer: 'payments',
          merchantId: shop.merchantId,
        });
        expect(event.data).to.include({
          merchantId: shop.merchantId,
          txHash: body.txHash,
          amount: '10.100000',
          expectedAmount: '10.100000',
          currency: 'USDC',
          chainId: 31337,
          sourceChain: 'BASE',
          isCrossChain: false,
          sessionId: null,
          sessionCreatedAt: null,
        });
      } finally {
        await observer.close();
      }
    });
  });

  describe('GET /payments/:id/status', () => {
    it('returns exactly the status view', async () => {
      const created = await create(paymentBody(shop));
      const res = await h.call('GET', `/payments/${created.body.data.paymentId}/status`);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body.data).sort()).to.deep.equal([
        'cctp_attestation_status',
        'id',
        'is_cross_chain',
        'status',
        'updated_at',
      ]);
      expect(res.body.data).to.include({
        id: created.body.data.paymentId,
        status: 'pending',
        is_cross_chain: false,
        cctp_attestation_status: null,
      });
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const bad = await h.call('GET', '/payments/not-a-uuid/status');
      expect(bad.status).to.equal(400);
      expect(paths(bad)).to.deep.equal(['id']);
      expect((await h.call('GET', `/payments/${randomUUID()}/status`)).status).to.equal(404);
    });
  });

  describe('merchant projection', () => {
    it('applies a wallet.assigned that overtakes its merchant.created once the merchant arrives', async () => {
      const merchantId = randomUUID();
      const wallet = randomAddress();
      await h.publish('wallet.assigned', {
        merchantId,
        walletId: randomUUID(),
        address: wallet,
        blockchain: 'BASE',
        chainId: 8453,
      });
      await h.publish('merchant.created', {
        merchantId,
        publicId: `sp_live_${randomUUID()}`,
        name: 'Late Shop',
        blockchain: 'BASE',
        acceptedCurrencies: ['USDC'],
        email: 'late@example.test',
      });
      const row = await waitFor(() =>
        h.db('merchants').where({ merchant_id: merchantId }).whereNotNull('wallet_address').first(),
      );
      expect(row).to.include({ wallet_address: wallet, wallet_chain_id: 8453, name: 'Late Shop' });
    });
  });

  describe('text the database cannot store', () => {
    it('answers 400, not 500, for NUL characters', async () => {
      const res = await create(
        paymentBody(shop, { reference: 'a\u0000b', metadata: { 'k\u0000': 'v', n: ['\u0000'] } }),
      );
      expect(res.status).to.equal(400);
      expect(paths(res)).to.have.members(['reference', 'metadata.k\u0000', 'metadata.n.0']);
    });
  });

  describe('internal token', () => {
    it('serves /healthz and /readyz (real checks) without one', async () => {
      expect((await fetch(`${h.url}/healthz`)).status).to.equal(200);
      const ready = await fetch(`${h.url}/readyz`);
      expect(ready.status).to.equal(200);
      expect(await ready.json()).to.deep.include({ checks: { database: 'ok', bus: 'ok' } });
    });

    it('refuses requests without a valid internal token', async () => {
      expect(
        (await h.call('POST', '/payments/create-public', { anonymous: true, body: paymentBody(shop) }))
          .status,
      ).to.equal(401);
      const res = await fetch(`${h.url}/payments/${randomUUID()}/status`, {
        headers: { 'x-internal-token': 'forged' },
      });
      expect(res.status).to.equal(401);
    });
  });
});

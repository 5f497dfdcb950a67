import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { SigningKey, computeAddress, getAddress } from 'ethers';
import { EventTypes, WalletBalanceResponse } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { deriveMerchantKey } from '../../src/custody/key-derivation.js';
import { openSeed } from '../../src/custody/seed-crypto.js';
import { Customer } from '../support/chain.js';
import { KEK, capturingLogger, startHarness, type Harness, type Merchant } from '../support/harness.js';

describe('wallet custody and balances (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let logLines: string[];
  let shop: Merchant;
  let polygonShop: Merchant;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2 });
    const captured = capturingLogger('chain-watcher');
    logLines = captured.lines;
    h = await startHarness({ registry: devnet.registry(), logger: captured.logger });
    shop = await h.createMerchant('BASE');
    polygonShop = await h.createMerchant('MATIC', ['USDC']);
  });
  after(async () => {
    await h?.close();
    await devnet?.stop();
  });

  it('assigns each merchant a wallet on its blockchain and announces it once with wallet.assigned', async () => {
    const base = devnet.chain('BASE');
    expect(shop.chainId).to.equal(base.chainId);
    expect(shop.address).to.equal(getAddress(shop.address));
    expect(polygonShop.chainId).to.equal(devnet.chain('MATIC').chainId);
    expect(polygonShop.address).to.not.equal(shop.address);
    const rows = await h.db('wallets').where({ merchant_id: shop.merchantId });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({
      id: shop.walletId,
      address: shop.address,
      blockchain: 'BASE',
      chain_id: base.chainId,
    });

    // A redelivered (or repeated) merchant.created creates no second wallet and no second announcement.
    const repeated = await h.publish(EventTypes.MerchantCreated, {
      merchantId: shop.merchantId,
      publicId: `sp_live_${randomUUID()}`,
      name: 'Test Shop',
      blockchain: 'BASE',
      acceptedCurrencies: ['USDC'],
      email: 'shop@example.test',
    });
    await waitFor(() => h.db('inbox').where({ message_id: repeated.id }).first());
    await h.events.drain();
    const announced = h.events.messages.filter(
      (e) => e.type === 'wallet.assigned' && e.data.merchantId === shop.merchantId,
    );
    expect(announced).to.have.length(1);
    expect(announced[0]).to.include({ producer: 'chain-watcher', merchantId: shop.merchantId });
    expect(await h.db('wallets').where({ merchant_id: shop.merchantId }).count('* as n')).to.deep.equal([
      { n: '1' },
    ]);
  });

  it('dead-letters merchant.created for a blockchain the registry does not serve', async () => {
    const merchantId = randomUUID();
    await h.publish(EventTypes.MerchantCreated, {
      merchantId,
      publicId: `sp_live_${randomUUID()}`,
      name: 'Arbitrum Shop',
      blockchain: 'ARB',
      acceptedCurrencies: ['USDC'],
      email: 'arb@example.test',
    });
    const dead = await waitFor(async () =>
      (await h.bus.peekDeadLetters('chain-watcher')).find((d) => d.message.body.merchantId === merchantId),
    );
    expect(dead.error).to.match(/ARB, which the devnet chain registry does not serve/);
    expect(await h.db('wallets').where({ merchant_id: merchantId }).first()).to.equal(undefined);
  });

  it('GET /wallets/api/balance reads exact USDC and EURC balances on-chain, with no-store', async () => {
    const customer = new Customer(devnet.chain('BASE'), devnet.customers[0]!);
    try {
      await customer.pay('USDC', shop.address, '12.345678');
      await customer.pay('EURC', shop.address, '3.5');
      const res = await h.call('/wallets/api/balance', { merchantId: shop.merchantId });
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(WalletBalanceResponse.safeParse(res.body).success).to.equal(true);
      expect(res.body).to.deep.equal({
        success: true,
        data: {
          wallet_id: shop.walletId,
          address: shop.address,
          blockchain: 'BASE',
          balances: [
            { token: 'USDC', amount: '12.345678' },
            { token: 'EURC', amount: '3.500000' },
          ],
        },
      });
      // A new payment shows at once: nothing is cached.
      await customer.pay('USDC', shop.address, '0.000001');
      const again = await h.call('/wallets/api/balance', { merchantId: shop.merchantId });
      expect(again.body.data.balances[0]).to.deep.equal({ token: 'USDC', amount: '12.345679' });
    } finally {
      customer.destroy();
    }
  });

  it('lists only the tokens the chain has (no EURC on MATIC)', async () => {
    const res = await h.call('/wallets/api/balance', { merchantId: polygonShop.merchantId });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ blockchain: 'MATIC', address: polygonShop.address });
    expect(res.body.data.balances).to.deep.equal([{ token: 'USDC', amount: '0.000000' }]);
  });

  it('answers 404 in the envelope for a merchant without a wallet, and refuses callers that are not API keys', async () => {
    const missing = await h.call('/wallets/api/balance', { merchantId: randomUUID() });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('cache-control')).to.equal('no-store');
    expect(missing.body).to.deep.equal({ success: false, error: 'Wallet not found', details: [] });
    expect((await h.call('/wallets/api/balance', { caller: 'public' })).status).to.equal(401);
    expect(
      (await h.call('/wallets/api/balance', { caller: 'user', merchantId: shop.merchantId })).status,
    ).to.equal(403);
    const anonymous = await fetch(`${h.url}/wallets/api/balance`);
    expect(anonymous.status).to.equal(401);
  });

  it('GET /internal/wallets/:merchantId answers services only', async () => {
    const res = await h.call(`/internal/wallets/${shop.merchantId}`, { caller: 'service' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true,
      data: {
        wallet: { id: shop.walletId, address: shop.address, blockchain: 'BASE', chainId: shop.chainId },
      },
    });
    expect((await h.call(`/internal/wallets/${randomUUID()}`, { caller: 'service' })).status).to.equal(404);
    expect((await h.call(`/internal/wallets/not-a-uuid`, { caller: 'service' })).status).to.equal(400);
    expect(
      (await h.call(`/internal/wallets/${shop.merchantId}`, { merchantId: shop.merchantId })).status,
    ).to.equal(403);
  });

  it('stores the master seed only encrypted (AES-256-GCM) and derives every wallet from it', async () => {
    const row = await h.db('master_seed').first();
    expect(row.algorithm).to.equal('aes-256-gcm');
    expect(row.iv).to.have.length(12);
    expect(row.auth_tag).to.have.length(16);
    const seed = openSeed(
      { ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag },
      Buffer.from(KEK, 'hex'),
    );
    expect(seed).to.have.length(32);
    expect(Buffer.compare(row.ciphertext, seed)).to.not.equal(0);
    expect(row.ciphertext.includes(seed.subarray(0, 8))).to.equal(false);
    // The address announced is the one the seed derives: whoever holds the seed (and only they) can move the funds.
    const key = deriveMerchantKey(seed, shop.merchantId);
    expect(computeAddress(new SigningKey(`0x${key.toString('hex')}`).publicKey)).to.equal(shop.address);
    // Neither the seed nor a merchant key ever reaches a log line, even at debug level.
    expect(logLines.length).to.be.greaterThan(5);
    const all = logLines.join('\n').toLowerCase();
    expect(all).to.not.include(seed.toString('hex'));
    expect(all).to.not.include(key.toString('hex'));
    expect(all).to.not.include(KEK.toLowerCase());
  });

  it('refuses to start with a WALLET_KEK that cannot open the stored seed, saying so', async () => {
    let failure: Error | undefined;
    await startHarness({
      registry: devnet.registry(),
      env: { WALLET_KEK: randomBytes(32).toString('base64') },
      share: h,
    }).catch((err: Error) => (failure = err));
    expect(failure?.name).to.equal('WalletKeyError');
    expect(failure?.message).to.match(/WALLET_KEK cannot decrypt the stored master seed/);
    // The stored seed is untouched: the original key still opens it.
    expect(await h.db('master_seed').count('* as n')).to.deep.equal([{ n: '1' }]);
  });

  // Last: it moves the seed to another key, which the tests above read it with.
  it('rotates WALLET_KEK: replicas started with WALLET_KEK_PREVIOUS re-seal the seed once, and every wallet stays the same', async () => {
    const newKek = randomBytes(32);
    const before = await h.db('master_seed').first();
    // Neither key opens the seed: refused as without a previous key, the row untouched.
    let failure: Error | undefined;
    await startHarness({
      registry: devnet.registry(),
      env: { WALLET_KEK: newKek.toString('hex'), WALLET_KEK_PREVIOUS: randomBytes(32).toString('hex') },
      share: h,
    }).catch((err: Error) => (failure = err));
    expect(failure?.name).to.equal('WalletKeyError');
    expect(failure?.message).to.match(/neither WALLET_KEK nor WALLET_KEK_PREVIOUS can decrypt/);
    expect((await h.db('master_seed').first()).ciphertext.equals(before.ciphertext)).to.equal(true);

    // Two replicas start together with the new key and the old one as previous.
    const rotation = { WALLET_KEK: newKek.toString('base64'), WALLET_KEK_PREVIOUS: KEK };
    const logs = [capturingLogger('chain-watcher'), capturingLogger('chain-watcher')];
    const replicas = await Promise.all(
      logs.map(({ logger }) =>
        startHarness({ registry: devnet.registry(), env: rotation, share: h, logger }),
      ),
    );
    try {
      // Exactly one of them wrote the re-sealed seed; the other opened what it found under the new key.
      const lines = logs.flatMap((l) => l.lines);
      expect(lines.filter((l) => l.includes('master seed was re-sealed under WALLET_KEK:'))).to.have.length(
        1,
      );
      expect(lines.join('\n')).to.not.include(newKek.toString('hex')).and.not.include(KEK);
      const rows = await h.db('master_seed');
      expect(rows).to.have.length(1);
      const sealed = { ciphertext: rows[0].ciphertext, iv: rows[0].iv, authTag: rows[0].auth_tag };
      expect(sealed.ciphertext.equals(before.ciphertext)).to.equal(false);
      // Only the new key opens it now, and it opens to the same seed.
      expect(() => openSeed(sealed, Buffer.from(KEK, 'hex'))).to.throw(/WALLET_KEK cannot decrypt/);
      const seed = openSeed(sealed, newKek);
      const old = openSeed(
        { ciphertext: before.ciphertext, iv: before.iv, authTag: before.auth_tag },
        Buffer.from(KEK, 'hex'),
      );
      expect(seed.equals(old)).to.equal(true);
      for (const replica of replicas) {
        expect(await replica.service.context.signer.addressOf(shop.merchantId)).to.equal(shop.address);
        expect(await replica.service.context.signer.addressOf(polygonShop.merchantId)).to.equal(
          polygonShop.address,
        );
      }
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }

    // The next rollout drops the previous key: the new key alone opens the seed, same wallets.
    const after = await startHarness({
      registry: devnet.registry(),
      env: { WALLET_KEK: newKek.toString('hex') },
      share: h,
    });
    try {
      expect(await after.service.context.signer.addressOf(shop.merchantId)).to.equal(shop.address);
      const created = await after.createMerchant('BASE');
      const row = await h.db('wallets').where({ merchant_id: created.merchantId }).first();
      expect(row.address).to.equal(created.address);
    } finally {
      await after.close();
    }
  });
});

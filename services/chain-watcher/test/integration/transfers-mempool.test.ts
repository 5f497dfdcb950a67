import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Wallet, type TransactionResponse } from 'ethers';
import { baseUnitsToDecimal } from '@stablepay/contracts';
import { waitFor } from '@stablepay/platform/testing';
import { startDevnet, type Devnet } from '@stablepay/devnet';
import { authorizationNonce } from '../../src/chain/fiat-token.js';
import { units } from '../support/chain.js';
import { startHarness, type Harness, type Merchant } from '../support/harness.js';
import {
  ChainProbe,
  attemptRows,
  cancelAuthorization,
  devnetRelayerKeys,
  merchantSigningKey,
  requestTransfer,
  transferEvents,
  transferOutcome,
} from '../support/transfers.js';

const recipient = () => Wallet.createRandom().address;
const STUCK_AFTER_MS = 800;

/**
 * With anvil's automine off, transactions wait in the pool until the test mines: a relayer
 * transaction can be stuck, and other transactions can be ordered ahead of it.
 */
describe('outgoing transfers against a mempool: replacement and reverts (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;
  let base: ChainProbe;
  let shop: Merchant;
  let payerKey: string;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 1 });
    h = await startHarness({
      registry: devnet.registry(),
      env: {
        RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet),
        TRANSFER_POLL_MS: '50',
        TRANSFER_STUCK_AFTER_MS: String(STUCK_AFTER_MS),
      },
    });
    base = new ChainProbe(devnet.chain('BASE'));
    payerKey = devnet.customers[0]!.privateKey;
    shop = await h.createMerchant('BASE');
    await devnet.fund('BASE', shop.address, { USDC: units('50') });
  });
  beforeEach(() => base.setAutomine(false));
  afterEach(() => base.setAutomine(true));
  after(async () => {
    base?.destroy();
    await h?.close();
    await devnet?.stop();
  });

  /** The attempt rows once `n` of them have reached the node. */
  const broadcastAttempts = (key: string, n: number) =>
    waitFor(
      async () => {
        const rows = await attemptRows(h, key);
        return rows.length >= n && rows.slice(0, n).every((r) => r.broadcast_at !== null) && rows;
      },
      10_000,
      `${n} broadcast attempts`,
    );

  it('replaces a stuck transaction with the same nonce and fees raised 12.5%; exactly one lands and is the one confirmed', async () => {
    const to = recipient();
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '3.25' });
    const [first] = await broadcastAttempts(key, 1);
    expect(await base.pooled()).to.include(first.tx_hash);
    const submitted = await h.event((e) => e.type === 'transfer.submitted' && e.data.idempotencyKey === key);
    expect(submitted.data.txHash).to.equal(first.tx_hash);

    const [, second] = await broadcastAttempts(key, 2);
    expect(second).to.include({
      kind: 'replacement',
      action: 'transfer',
      relayer_nonce: first.relayer_nonce,
    });
    expect(new Date(second.signed_at).getTime() - new Date(first.broadcast_at).getTime()).to.be.at.least(
      STUCK_AFTER_MS - 50,
    );
    for (const fee of ['max_fee_per_gas', 'max_priority_fee_per_gas']) {
      expect(BigInt(second[fee]) * 8n >= BigInt(first[fee]) * 9n, fee).to.equal(true);
    }
    expect(await base.pooled()).to.not.include(first.tx_hash);

    await base.mine();
    const confirmed = await transferOutcome(h, key);
    expect(confirmed.type).to.equal('transfer.confirmed');
    const attempts = await attemptRows(h, key);
    const landed = [];
    for (const a of attempts) if (await base.receipt(a.tx_hash)) landed.push(a.tx_hash);
    expect(landed).to.deep.equal([confirmed.data.txHash]);
    expect(confirmed.data.txHash).to.not.equal(first.tx_hash);
    expect(await base.transfersTo('USDC', to)).to.deep.equal([
      { txHash: confirmed.data.txHash, value: units('3.25') },
    ]);
    await h.events.drain();
    expect(transferEvents(h, key).map((e) => e.type)).to.deep.equal([
      'transfer.submitted',
      'transfer.confirmed',
    ]);
  });

  it('fails `reverted` when the wallet key cancelled the authorization ahead of the relayer transaction', async () => {
    const to = recipient();
    const before = await base.balance('USDC', shop.address);
    const key = await requestTransfer(h, { merchant: shop, toAddress: to, amount: '1' });
    const [first] = await broadcastAttempts(key, 1);
    // The key holder cancels the very nonce, with a higher tip: mined first in the same block.
    const cancel = await cancelAuthorization(
      base,
      await merchantSigningKey(h, shop.merchantId),
      payerKey,
      'USDC',
      authorizationNonce(key),
    );
    await base.mine();

    const failed = await transferOutcome(h, key);
    expect(failed.type).to.equal('transfer.failed');
    expect(failed.data.code).to.equal('reverted');
    expect(failed.data.reason).to.include(`cancelled on BASE (transaction ${cancel})`);
    const reverted = (await attemptRows(h, key)).map((a) => a.tx_hash);
    expect(reverted).to.include(failed.data.txHash);
    expect(reverted[0]).to.equal(first.tx_hash);
    expect((await base.receipt(failed.data.txHash))!.status).to.equal('0x0');
    expect(await base.balance('USDC', to)).to.equal(0n);
    expect(await base.balance('USDC', shop.address)).to.equal(before);
  });

  it('after a revert that left the authorization unused, cancels it on-chain before failing, so the public signature can never execute', async () => {
    const to = recipient();
    const amount = await base.balance('USDC', shop.address);
    const key = await requestTransfer(h, {
      merchant: shop,
      toAddress: to,
      amount: baseUnitsToDecimal(amount),
    });
    const [first] = await broadcastAttempts(key, 1);

    // Ahead of it in the block, the wallet's key moves everything elsewhere (another authorization).
    const merchantKey = new Wallet((await merchantSigningKey(h, shop.merchantId)).privateKey);
    const payer = new Wallet(payerKey, base.provider);
    const token = base.token('USDC');
    const domain = {
      name: (await token.getFunction('name')()) as string,
      version: '2',
      chainId: base.chain.chainId,
      verifyingContract: await token.getAddress(),
    };
    const drain = {
      from: shop.address,
      to: recipient(),
      value: amount,
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
      nonce: `0x${randomBytes(32).toString('hex')}`,
    };
    const signature = await merchantKey.signTypedData(
      domain,
      {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      drain,
    );
    await (base
      .token('USDC', payer)
      .getFunction('transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)')(
      ...Object.values(drain),
      signature,
      {
        gasLimit: 200_000n,
        maxPriorityFeePerGas: 50_000_000_000n,
        maxFeePerGas: 100_000_000_000n,
      },
    ) as Promise<TransactionResponse>);
    await base.mine();
    expect((await base.receipt(first.tx_hash))!.status).to.equal('0x0');

    // The sender cancels the authorization it signed, then reports the failure.
    const [, cancel] = await broadcastAttempts(key, 2);
    expect(cancel).to.include({ action: 'cancel', kind: 'first' });
    expect(Number(cancel.relayer_nonce)).to.equal(Number(first.relayer_nonce) + 1);
    expect(transferEvents(h, key).filter((e) => e.type === 'transfer.failed')).to.deep.equal([]);
    await base.mine();
    const failed = await transferOutcome(h, key);
    expect(failed.data).to.deep.include({ code: 'insufficient_funds', txHash: first.tx_hash });
    expect(failed.data.reason).to.match(/held 0\.000000 USDC when the transfer of \d+\.\d{6} USDC was mined/);
    expect((await base.receipt(cancel.tx_hash))!.status).to.equal('0x1');

    // Funds come back; the signature from the reverted calldata is dead all the same.
    await base.setAutomine(true);
    await devnet.fund('BASE', shop.address, { USDC: amount });
    const replay = (await base.transaction(first.tx_hash))!.input;
    const refusal = await payer.call({ to: await token.getAddress(), data: replay }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refusal?.message).to.match(/authorization is used or canceled/);
    expect(await base.balance('USDC', to)).to.equal(0n);
  });
});

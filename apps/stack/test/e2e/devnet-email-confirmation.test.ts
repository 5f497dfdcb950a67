import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { Contract, JsonRpcProvider, Wallet, getAddress } from 'ethers';
import { randomBytes } from 'node:crypto';
import { fiatTokenAbi } from '@stablepay/devnet';
import { confirmEmailFromMail } from '../../src/mail-links.js';
import { waitFor } from '../support.js';
import {
  completedPayment as payAndComplete,
  startStackHarness,
  type Merchant,
  type StackHarness,
} from './harness.js';

/**
 * A new account through the gateway on the devnet: until its address is confirmed it is paid (and
 * its customers get receipts) but is e-mailed nothing and cannot withdraw; the e-mailed link changes
 * both. A registration of its address answers as a new one.
 */
describe('e-mail confirmation on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(240_000);
  const email = 'unconfirmed-shop@example.com';
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness({ EMAIL_CONFIRMATION_RESEND_SECONDS: '0' });
    shop = await h.register(email, { confirm: false });
    const c = chain();
    provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  const chain = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const usdc = (signer?: Wallet) => new Contract(chain().tokens.USDC!, fiatTokenAbi(), signer ?? provider);
  const walletBalance = async (): Promise<bigint> => usdc().getFunction('balanceOf')(shop.wallet.address);

  /** The e-mails written so far, as parsed messages with their notification kind. */
  const mails = async () => {
    if (!existsSync(h.mailDir)) return [];
    return Promise.all(
      readdirSync(h.mailDir)
        .filter((f) => f.endsWith('.eml'))
        .map(async (f) => {
          const m = await simpleParser(readFileSync(join(h.mailDir, f)));
          return {
            to: m.to && !Array.isArray(m.to) ? m.to.text : '',
            kind: m.headers.get('x-stablepay-notification'),
          };
        }),
    );
  };

  /** A customer pays for real; the payment completes. */
  const pay = async (customerIndex: number, amount: string, customerEmail: string) => {
    await payAndComplete(h, shop, provider, customerIndex, amount, customerEmail);
  };
  // Requesting withdrawals is a scope only ever given on purpose, and they go only to the address book.
  let payout: { key: Record<string, string>; destination: string } | undefined;
  const payoutSetUp = async () => {
    const key = await h.createKey(shop, ['withdrawals:write'], 'payouts');
    const destination = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const added = await h.gw.call('POST', '/withdrawal-addresses', {
      headers: shop.bearer,
      body: { address: destination, label: 'Payout account' },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    return { key, destination };
  };
  const withdraw = async () => {
    payout ??= await payoutSetUp();
    return h.gw.call('POST', '/withdrawals/api/create', {
      headers: payout.key,
      body: { currency: 'USDC', amount: '5', destination_address: payout.destination },
    });
  };

  it('is paid but e-mailed nothing and refused withdrawals until confirmed, then both work', async () => {
    const me = await h.gw.call('GET', '/auth/me', { headers: shop.bearer });
    expect(me.body.data.user.email_confirmed).to.equal(false);

    await pay(0, '20', 'first-payer@example.com');
    await waitFor(async () => (await mails()).some((m) => m.to === 'first-payer@example.com'), 'receipt');
    const before = await walletBalance();
    const refused = await withdraw();
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.details[0]).to.include({ code: 'email_not_confirmed' });
    expect(await walletBalance()).to.equal(before);
    // Only the confirmation link went to the merchant.
    expect((await mails()).filter((m) => m.to === email).map((m) => m.kind)).to.deep.equal([
      'email_confirmation',
    ]);

    // Registering the address again answers as any registration, and sends the link again.
    const again = await h.gw.call('POST', '/auth/register', {
      body: { email, password: 'another long password', merchantName: 'Other', blockchain: 'BASE' },
    });
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal({
      success: true,
      data: { email, confirmation_required: true, confirmation_expires_in: 86_400 },
    });

    await confirmEmailFromMail(h.stack.gatewayUrl, h.mailDir, email);
    const confirmed = await h.gw.call('GET', '/auth/me', { headers: shop.bearer });
    expect(confirmed.body.data.user.email_confirmed).to.equal(true);
    // The services learn it by event: the withdrawal goes through once invoicing has.
    const made = await waitFor(async () => {
      const r = await withdraw();
      return r.status === 201 ? r : undefined;
    }, 'withdrawal after confirmation');
    expect(made.body.data.amount).to.equal('5.000000');

    await pay(1, '7', 'second-payer@example.com');
    await waitFor(
      async () => (await mails()).some((m) => m.to === email && m.kind === 'payment_received'),
      'payment notice to the confirmed merchant',
    );
  });
});

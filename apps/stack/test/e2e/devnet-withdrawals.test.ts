import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { Contract, JsonRpcProvider, Wallet, getAddress, parseUnits } from 'ethers';
import { PDFParse } from 'pdf-parse';
import { Invoice, Withdrawal } from '@stablepay/contracts';
import { fiatTokenAbi } from '@stablepay/devnet';
import { DEVNET_TREASURY } from '../../src/services.js';
import { waitFor } from '../support.js';
import {
  completedPayment as payAndComplete,
  startStackHarness,
  type Merchant,
  type StackHarness,
} from './harness.js';

const pdfText = async (pdf: Buffer): Promise<string> => {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};

/**
 * Withdrawals and the invoices they issue, through the gateway, on the devnet: the net amount and the
 * fee really move on-chain, from the merchant wallet, gasless.
 */
describe('withdrawals and invoices on the devnet, through the gateway (PostgreSQL, RabbitMQ)', function () {
  this.timeout(240_000);
  let h: StackHarness;
  let shop: Merchant;
  let provider: JsonRpcProvider;

  before(async () => {
    h = await startStackHarness();
    shop = await h.register('withdrawal-shop@example.com');
    const c = chain();
    provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await h?.close();
  });

  const chain = () => h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const usdc = (signer?: Wallet) => new Contract(chain().tokens.USDC!, fiatTokenAbi(), signer ?? provider);
  const balanceOf = async (address: string): Promise<bigint> => usdc().getFunction('balanceOf')(address);
  const newAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
  /** Puts a new address on the shop's withdrawal address book (no hold on the devnet). */
  const approvedAddress = async (label: string) => {
    const address = newAddress();
    const added = await h.gw.call('POST', '/withdrawal-addresses', {
      headers: shop.bearer,
      body: { address: address.toLowerCase(), label },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    expect(added.body.data).to.include({ address, status: 'active' });
    return address;
  };
  const mailNamed = (notification: string) =>
    waitFor(
      async () => {
        const mailDir = join(h.varDir, 'mail');
        if (!existsSync(mailDir)) return undefined;
        for (const file of readdirSync(mailDir).filter((f) => f.endsWith('.eml'))) {
          const parsed = await simpleParser(readFileSync(join(mailDir, file)));
          if (parsed.headers.get('x-stablepay-notification') === notification) return parsed;
        }
        return undefined;
      },
      `${notification} e-mail`,
      30_000,
    );

  /** A customer pays `amount` USDC for real and the payment completes. */
  const completedPayment = async (customerIndex: number, amount: string) => {
    await payAndComplete(h, shop, provider, customerIndex, amount);
  };

  const finalWithdrawal = (id: string) =>
    waitFor(
      async () => {
        const r = await h.gw.call('GET', `/withdrawals/api/${id}`, { headers: shop.key });
        return ['completed', 'failed'].includes(r.body.data?.status)
          ? Withdrawal.parse(r.body.data)
          : undefined;
      },
      `withdrawal ${id}`,
      90_000,
    );

  const pdf = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${h.stack.gatewayUrl}${path}`, { headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('pays out the net amount and the fee on-chain, and issues the invoice in both lists and as a PDF', async () => {
    await completedPayment(0, '100');
    const profile = await h.gw.call('PUT', '/billing-profile', {
      headers: shop.bearer,
      body: {
        legal_name: 'Withdrawal Shop SAS',
        address_line1: '12 rue de la Paix',
        postal_code: '75002',
        city: 'Paris',
        country: 'FR',
        vat_number: 'FR12345678901',
        language: 'en',
      },
    });
    expect(profile.status, JSON.stringify(profile.body)).to.equal(200);

    // A key given withdrawals:write on purpose; the shop's default key has no such scope.
    const payouts = await h.createKey(shop, ['withdrawals:write', 'withdrawals:read'], 'payouts');
    // Money goes only to the address book: a stranger's address is refused, and nothing moves.
    const stranger = await h.gw.call('POST', '/withdrawals/api/create', {
      headers: payouts,
      body: { amount: '60', currency: 'USDC', destination_address: newAddress() },
    });
    expect(stranger.status).to.equal(422);
    expect(stranger.body.details[0]).to.include({ code: 'destination_not_approved' });
    // API keys cannot add to it.
    const byKey = await h.gw.call('POST', '/withdrawal-addresses', {
      headers: shop.key,
      body: { address: newAddress(), label: 'Key' },
    });
    expect(byKey.status).to.equal(403);
    const destination = await approvedAddress('Payout account');
    const treasuryBefore = await balanceOf(DEVNET_TREASURY.address);
    const walletBefore = await balanceOf(shop.wallet.address);
    const body = { amount: '60', currency: 'USDC', destination_address: destination };
    // The shop's default key may read withdrawals but not request one: that scope is given on purpose.
    const refused = await h.gw.call('POST', '/withdrawals/api/create', {
      headers: { ...shop.key, 'idempotency-key': 'withdraw-60' },
      body,
    });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.details[0]).to.include({ code: 'insufficient_scope' });
    expect(refused.body.details[0].message).to.contain('withdrawals:write');
    const request = () =>
      h.gw.call('POST', '/withdrawals/api/create', {
        headers: { ...payouts, 'idempotency-key': 'withdraw-60' },
        body,
      });
    const created = await request();
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.include({
      amount: '60.000000',
      fee: '0.300000',
      net_amount: '59.700000',
      status: 'requested',
      blockchain: 'BASE',
    });
    // The same Idempotency-Key replays the first answer: one withdrawal, not two.
    const replay = await request();
    expect(replay.body.data.id).to.equal(created.body.data.id);

    const done = await finalWithdrawal(created.body.data.id);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(await balanceOf(destination)).to.equal(parseUnits('59.7', 6));
    expect((await balanceOf(DEVNET_TREASURY.address)) - treasuryBefore).to.equal(parseUnits('0.3', 6));
    expect(walletBefore - (await balanceOf(shop.wallet.address))).to.equal(parseUnits('60', 6));
    expect(await provider.getBalance(shop.wallet.address)).to.equal(0n);
    for (const hash of [done.tx_hash!, done.fee_tx_hash!]) {
      const receipt = await provider.getTransactionReceipt(hash);
      expect(receipt?.status, hash).to.equal(1);
    }

    const invoiceList = await waitFor(async () => {
      const r = await h.gw.call('GET', '/invoices/api/list', { headers: shop.key });
      return r.body.data?.length === 1 ? r.body.data : undefined;
    }, 'invoice in the API-key list');
    const invoice = Invoice.parse(invoiceList[0]);
    expect(invoice.id).to.equal(done.invoice_id);
    expect(invoice).to.deep.include({
      status: 'issued',
      gross_amount: '60.000000',
      service_fee: '0.300000',
      service_fee_eur: '0.280000',
      net_amount: '59.700000',
      tax_amount: '0.000000',
      tax_case: 'reverse_charge',
      currency: 'USDC',
      blockchain: 'BASE',
    });
    expect(invoice.invoice_number).to.match(new RegExp(`^INV-${new Date().getUTCFullYear()}-0001$`));
    const byJwt = await h.gw.call('GET', `/invoices?year=${new Date().getUTCFullYear()}`, {
      headers: shop.bearer,
    });
    expect(byJwt.body.data).to.deep.equal(invoiceList);

    const viewed = await pdf(`/invoices/api/${invoice.id}/pdf`, shop.key);
    expect(viewed.res.status).to.equal(200);
    expect(viewed.res.headers.get('content-type')).to.equal('application/pdf');
    expect(viewed.res.headers.get('content-disposition')).to.equal(
      `inline; filename="${invoice.invoice_number}.pdf"`,
    );
    const downloaded = await pdf(`/invoices/${invoice.id}/pdf?mode=download`, shop.bearer);
    expect(downloaded.res.headers.get('content-disposition')).to.equal(
      `attachment; filename="${invoice.invoice_number}.pdf"`,
    );
    expect(downloaded.bytes.equals(viewed.bytes)).to.equal(true);
    const text = await pdfText(viewed.bytes);
    for (const expected of [
      invoice.invoice_number,
      'Withdrawal Shop SAS',
      'FR12345678901',
      'Withdrawal service fee (0.5 % of 60.000000 USDC)',
      '0.300000 USDC',
      '0.28 EUR',
      '59.700000 USDC',
      'Reverse charge: VAT to be accounted for by the recipient',
      done.tx_hash!,
      done.fee_tx_hash!,
    ])
      expect(text).to.contain(expected);

    const issued = await waitFor(
      () => h.events.find((e) => e.type === 'invoice.issued' && e.body.data.invoiceId === invoice.id),
      'invoice.issued',
    );
    expect(issued.body.data).to.include({ invoiceNumber: invoice.invoice_number, taxCase: 'reverse_charge' });
    expect(h.events.filter((e) => e.type === 'withdrawal.completed')).to.have.length(1);

    // The merchant gets the invoice by e-mail, its PDF attached (written as .eml without SMTP).
    const mail = await mailNamed('invoice_issued');
    expect(JSON.stringify(mail.to)).to.contain('withdrawal-shop@example.com');
    expect(mail.subject).to.equal(`Invoice ${invoice.invoice_number}: withdrawal fee 0.300000 USDC`);
    expect(mail.attachments).to.have.length(1);
    expect(mail.attachments[0]).to.include({
      filename: `${invoice.invoice_number}.pdf`,
      contentType: 'application/pdf',
    });
    expect(mail.attachments[0]!.content.equals(viewed.bytes)).to.equal(true);

    // The address was announced by e-mail and recorded in the audit log, as the user who added it.
    const announced = await mailNamed('withdrawal_address_added');
    expect(announced.subject).to.equal('New withdrawal address added: Payout account');
    expect(announced.text).to.contain(destination);
    const audit = await waitFor(async () => {
      const r = await h.gw.call('GET', '/audit-log?action=withdrawal_address.added', {
        headers: shop.bearer,
      });
      return r.body.data?.entries.length ? r.body.data.entries : undefined;
    }, 'address book audit entry');
    expect(audit[0]).to.deep.include({ actor: 'user' });
    expect(audit[0].details).to.include({ address: destination, stepUp: 'recent_sign_in' });

    const other = await h.register('other-withdrawer@example.com');
    expect((await pdf(`/invoices/api/${invoice.id}/pdf`, other.key)).res.status).to.equal(404);
  });

  it('withdraws everything available from the dashboard, and refuses what is not there', async () => {
    const left = await balanceOf(shop.wallet.address);
    const destination = await approvedAddress('Second account');
    const over = await h.gw.call('POST', '/withdrawals', {
      headers: shop.bearer,
      body: { amount: '1000', currency: 'USDC', destination_address: destination },
    });
    expect(over.status).to.equal(422);
    expect(over.body.details[0]).to.include({ path: 'amount', code: 'amount_exceeds_available' });
    const badAddress = await h.gw.call('POST', '/withdrawals', {
      headers: shop.bearer,
      body: { currency: 'USDC', destination_address: '0xnot-an-address' },
    });
    expect(badAddress.status).to.equal(400);

    const all = await h.gw.call('POST', '/withdrawals', {
      headers: shop.bearer,
      body: { currency: 'USDC', destination_address: destination },
    });
    expect(all.status, JSON.stringify(all.body)).to.equal(201);
    expect(parseUnits(all.body.data.amount, 6)).to.equal(left);
    const done = await finalWithdrawal(all.body.data.id);
    expect(done.status).to.equal('completed');
    expect(await balanceOf(shop.wallet.address)).to.equal(0n);
    expect(await balanceOf(destination)).to.equal(parseUnits(all.body.data.net_amount, 6));

    const list = await h.gw.call('GET', '/withdrawals', { headers: shop.bearer });
    expect(list.body.data.withdrawals.map((w: { id: string }) => w.id)[0]).to.equal(all.body.data.id);
    const invoices = await waitFor(async () => {
      const r = await h.gw.call('GET', '/invoices', { headers: shop.bearer });
      return r.body.data?.length === 2 ? r.body.data : undefined;
    }, 'second invoice');
    expect(invoices[0].invoice_number).to.match(/-0002$/);
  });
});

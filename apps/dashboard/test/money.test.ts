import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, formatUnits } from 'ethers';
import { fiatTokenAbi } from '@stablepay/devnet';
import {
  PHONE,
  registerMerchant,
  seriousViolations,
  signIn,
  startDashboardStack,
  waitFor,
  type DashboardStack,
  type Tab,
} from './support/dashboard-stack.js';

/**
 * Withdrawals, invoices and the billing profile in the dashboard against the whole stack on the
 * devnet: a withdrawal requested in the dashboard is split on-chain into the net amount and the
 * fee, its invoice is shown, downloaded as a PDF and rectified; the billing profile is refused
 * with a VAT number of another country and saved with one of its own.
 */
describe('dashboard: withdrawals, invoices and billing profile (Chromium, devnet)', function () {
  this.timeout(120_000);
  let s: DashboardStack;
  let merchant: Awaited<ReturnType<typeof registerMerchant>>;
  const email = `money-${Date.now()}@example.com`;
  const tabs: Tab[] = [];
  let provider: JsonRpcProvider;

  before(async () => {
    s = await startDashboardStack();
    merchant = await registerMerchant(s.gw, email);
    const { paymentId } = await s.pay({
      merchantId: merchant.merchantId,
      to: merchant.wallet.address,
      amount: '50',
    });
    await waitFor(async () => {
      const r = await s.gw.call('GET', `/payments/${paymentId}`, { headers: merchant.bearer });
      return r.body.data?.status === 'completed';
    }, 'payment completed');
    const base = s.chain('BASE');
    provider = new JsonRpcProvider(base.rpcUrl, base.chainId, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(async () => {
    provider?.destroy();
    await s?.close();
  });
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await s.closeTab(tab);
  });

  const open = async (opts?: Parameters<DashboardStack['open']>[0]) => {
    const tab = await s.open(opts);
    tabs.push(tab);
    return tab;
  };
  const usdcOf = async (address: string) => {
    const token = new Contract(s.chain('BASE').tokens.USDC!, fiatTokenAbi(), provider);
    return formatUnits((await token.getFunction('balanceOf')(address)) as bigint, 6);
  };

  it('withdraws on-chain and views, downloads and rectifies the invoice', async () => {
    // Withdrawals go only to the address book (no waiting period on the devnet).
    const destination = Wallet.createRandom().address;
    const approved = await s.gw.call('POST', '/withdrawal-addresses', {
      headers: merchant.bearer,
      body: { address: destination, label: 'Savings' },
    });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(201);
    const { page } = await open();
    await signIn(page, email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Withdrawals & invoices' })
      .click();
    await page.getByRole('heading', { name: 'Request a withdrawal' }).waitFor();
    await page.getByText('Your wallet holds 50.00 USDC.').waitFor();

    await page.locator('#w-destination option').first().waitFor({ state: 'attached' });
    expect(await page.getByLabel('Destination', { exact: true }).inputValue()).to.equal(
      approved.body.data.id,
    );
    await page.getByLabel('Amount').fill('0');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByText('Enter an amount above 0 with at most 6 decimals, or leave it empty.').waitFor();
    // The service's refusal of more than is available, in the dashboard's own words.
    await page.getByLabel('Amount').fill('5000');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page
      .getByRole('group', { name: 'Confirm the withdrawal' })
      .getByRole('button', { name: 'Confirm withdrawal' })
      .click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'That is more than is available to withdraw now. Leave the amount empty to withdraw everything available.',
      })
      .waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'withdrawals-desktop');

    await page.getByLabel('Amount').fill('20');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    // Amount and destination are shown before anything moves; Back changes nothing.
    const confirm = page.getByRole('group', { name: 'Confirm the withdrawal' });
    expect(await confirm.innerText())
      .to.contain('20.00 USDC')
      .and.contain('Savings')
      .and.contain(destination);
    await s.shot(page, 'withdrawal-confirm-desktop');
    await confirm.getByRole('button', { name: 'Back' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await confirm.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByRole('heading', { name: /Withdrawal of 20\.00 USDC/ }).waitFor();
    await page
      .getByRole('heading', { name: /Withdrawal of 20\.00 USDC/ })
      .getByText('Completed')
      .waitFor({ timeout: 60_000 });
    const net = (await page.locator('[data-net-amount]').innerText()).replace(' USDC', '');
    const netTx = await page.locator('[data-transfer="net"] [data-value]').getAttribute('data-value');
    const feeTx = await page.locator('[data-transfer="fee"] [data-value]').getAttribute('data-value');
    expect(netTx).to.match(/^0x[0-9a-f]{64}$/);
    expect(feeTx)
      .to.match(/^0x[0-9a-f]{64}$/)
      .and.not.equal(netTx);
    // On-chain: the destination holds exactly the net amount.
    expect(Number(await usdcOf(destination)).toFixed(2)).to.equal(net);
    expect(net).to.equal('19.90');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'withdrawal-detail-desktop');

    await page.getByRole('link', { name: 'See the invoice' }).click();
    const invoice = page.locator('[data-invoice-status="issued"]');
    await invoice.waitFor();
    const number = (await invoice.locator('h3').innerText()).split(' ')[0]!;
    expect(number).to.match(/^[A-Z][A-Z0-9]*-\d{4}-\d{4,}$/);
    expect(await invoice.innerText())
      .to.contain('20.00 USDC')
      .and.contain('0.10 USDC');

    await invoice.getByRole('button', { name: `View PDF ${number}` }).click();
    const viewer = page.locator('iframe[data-pdf-viewer]');
    await viewer.waitFor();
    expect(await viewer.getAttribute('src')).to.match(/^blob:/);
    expect(await viewer.getAttribute('title')).to.equal(`Invoice ${number} (PDF)`);
    await s.shot(page, 'invoice-view-desktop');
    await invoice.getByRole('button', { name: `Close PDF ${number}` }).click();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      invoice.getByRole('button', { name: `Download PDF ${number}` }).click(),
    ]);
    expect(download.suggestedFilename()).to.equal(`${number}.pdf`);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString('latin1'),
    ).to.equal('%PDF-');

    await invoice.getByRole('button', { name: `Rectify… ${number}` }).click();
    const form = page.getByRole('form', { name: `Rectify invoice ${number}` });
    await form.getByRole('button', { name: 'Rectify invoice' }).click();
    await form.getByText('Give a reason of 1 to 500 characters.').waitFor();
    await form.getByLabel('Reason (printed on the new invoice)').fill('Wrong company address');
    await form.getByRole('button', { name: 'Rectify invoice' }).click();
    const rectified = page.locator('[data-invoice-status="rectified"]');
    await rectified.waitFor();
    const replacement = page.locator('[data-invoice-status="issued"]');
    expect(await replacement.innerText()).to.contain(`Rectifies\n${number}`);
    expect(await rectified.innerText()).to.contain('Rectified by');
    const list = (await s.gw.call('GET', '/invoices', { headers: merchant.bearer })).body.data;
    expect(list.map((i: { status: string }) => i.status).sort()).to.deep.equal(['issued', 'rectified']);
    await s.shot(page, 'invoices-desktop');
  });

  it('saves the billing profile, refusing a VAT number of another country, on a phone and in German', async () => {
    const { page } = await open({ viewport: PHONE, locale: 'de-DE' });
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('link', { name: 'Auszahlungen & Rechnungen' }).click();
    await page.getByRole('link', { name: 'Rechnungsprofil' }).click();
    await page.getByRole('heading', { name: 'Rechnungsprofil', exact: true }).waitFor();
    expect(await page.getByLabel('Firmenname').inputValue()).to.equal('Corner Shop');

    await page.getByLabel('Adresse', { exact: true }).fill('Hauptstraße 1');
    await page.getByLabel('Postleitzahl').fill('10115');
    await page.getByLabel('Ort').fill('Berlin');
    await page.getByLabel('Land').selectOption('DE');
    await page.getByLabel('USt-IdNr. (optional)').fill('FR12345678901');
    await page.getByLabel('Rechnungssprache').selectOption('de');
    await page.getByRole('button', { name: 'Rechnungsprofil speichern' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /vat_number/ })
      .waitFor();

    await page.getByLabel('USt-IdNr. (optional)').fill('DE 123.456.789');
    await page.getByRole('button', { name: 'Rechnungsprofil speichern' }).click();
    await page.getByText('Rechnungsprofil gespeichert.').waitFor();
    expect(await page.getByLabel('USt-IdNr. (optional)').inputValue()).to.equal('DE123456789');
    const saved = (await s.gw.call('GET', '/billing-profile', { headers: merchant.bearer })).body.data;
    expect(saved).to.include({
      legal_name: 'Corner Shop',
      address_line1: 'Hauptstraße 1',
      address_line2: null,
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
      vat_number: 'DE123456789',
      language: 'de',
    });
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'billing-phone-de');

    await page.getByRole('link', { name: 'Rechnungen', exact: true }).click();
    await page.getByLabel('Status').selectOption('rectified');
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await page.locator('ul.invoices[data-total="1"] [data-invoice-status="rectified"]').waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await s.shot(page, 'invoices-phone-de');
  });
});

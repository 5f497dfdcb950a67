import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import { createTestDatabase, waitFor } from '@stablepay/platform/testing';
import { confirmEmailFromMail, startStack, type RunningStack } from '@stablepay/stack';
import { api as stackApi } from '../../../stack/test/support.js';
import { launchChromium } from '../../../checkout/test/support/chromium.js';

export { waitFor };

export { launchChromium };

const LOCAL_SCHEMES = new Set(['blob:', 'chrome:', 'chrome-extension:']);

export const SHOTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
export const PASSWORD = 'correct horse battery staple';
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core run inside the page (through the devtools protocol, which the page's CSP does not govern). */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  const result = (await page.evaluate(`${axeSource}
    axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** The gateway's API, and the stack's mail directory, where the merchants' confirmation links land. */
export const api = (baseUrl: string, mailDir = '') => ({
  url: baseUrl,
  mailDir,
  call: stackApi(baseUrl).call,
});

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Requests to origins other than the dashboard's and the gateway's. */
  foreign: string[];
  consoleErrors: string[];
}

export interface DashboardStack {
  stack: RunningStack;
  gw: ReturnType<typeof api>;
  browser: Browser;
  chain(name: string): DevnetChain;
  /** A fresh browser context on the dashboard, in English unless told. */
  open(opts?: { viewport?: { width: number; height: number }; locale?: string }): Promise<Tab>;
  /** Bearer headers for a merchant, through the API (to set up what a test needs). */
  signInApi(email: string): Promise<Record<string, string>>;
  /** A real devnet transfer to the merchant's wallet, reported as the widget does; the payment id. */
  pay(opts: {
    merchantId: string;
    to: string;
    token?: 'USDC' | 'EURC';
    amount: string;
    email?: string;
    reference?: string;
  }): Promise<{ paymentId: string; txHash: string; from: string }>;
  shot(page: Page, name: string): Promise<string>;
  /** Checks a tab made no third-party request and met no CSP refusal, then closes it. */
  closeTab(tab: Tab): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole stack on a fresh PostgreSQL database and the devnet, with the in-process bus (the
 * browser suite is about the dashboard; the broker is covered by the services' own suites), and
 * headless Chromium.
 */
export const startDashboardStack = async (env: Record<string, string> = {}): Promise<DashboardStack> => {
  const tdb = await createTestDatabase();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-dashboard-'));
  const stack = await startStack({
    varDir,
    databaseUrl: tdb.url,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'error',
    ports: {
      gateway: 0,
      checkout: 0,
      dashboard: 0,
      payments: 0,
      chainWatcher: 0,
      refunds: 0,
      invoicing: 0,
      notifier: 0,
      devnet: 0,
      attestation: 0,
    },
    persistChains: false,
    env: { SCRYPT_COST: '10', RATE_LIMIT_PUBLIC_PER_MINUTE: '100000', ...env },
  });
  const gw = api(stack.gatewayUrl, join(varDir, 'mail'));
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const providers: JsonRpcProvider[] = [];
  let customerIndex = 0;
  const allowed = new Set([new URL(stack.dashboardUrl).origin, new URL(stack.gatewayUrl).origin]);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const chain = (name: string) => stack.devnet.chains.find((c) => c.name === name)!;

  return {
    stack,
    gw,
    browser,
    chain,
    async open(opts = {}) {
      const context = await browser.newContext({
        viewport: opts.viewport ?? DESKTOP,
        locale: opts.locale ?? 'en-US',
      });
      contexts.push(context);
      const foreign: string[] = [];
      const consoleErrors: string[] = [];
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        // blob: is the page's own data; chrome: and chrome-extension: are the browser's built-in PDF
        // viewer showing an invoice, read from the browser itself.
        if (!allowed.has(url.origin) && !LOCAL_SCHEMES.has(url.protocol)) foreign.push(url.href);
        return route.continue();
      });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      await page.goto(stack.dashboardUrl);
      return { context, page, foreign, consoleErrors };
    },
    async signInApi(email) {
      const login = await gw.call('POST', '/auth/login', { body: { email, password: PASSWORD } });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      return { authorization: `Bearer ${login.body.data.access_token}` };
    },
    async pay({ merchantId, to, token = 'USDC', amount, email = 'payer@example.com', reference }) {
      const c = chain('BASE');
      const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
      providers.push(provider);
      const customer = stack.devnet.customers[customerIndex++ % stack.devnet.customers.length]!;
      const signer = new Wallet(customer.privateKey, provider);
      const contract = new Contract(c.tokens[token]!, fiatTokenAbi(), signer);
      const tx = await contract.getFunction('transfer')(to, parseUnits(amount, 6));
      await tx.wait();
      const r = await gw.call('POST', '/payments/create-public', {
        body: {
          merchantId,
          txHash: tx.hash,
          amount,
          expectedAmount: amount,
          token,
          chainId: c.chainId,
          fromAddress: customer.address,
          toAddress: to,
          customerEmail: email,
          ...(reference ? { reference } : {}),
        },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return { paymentId: r.body.data.paymentId, txHash: tx.hash as string, from: customer.address };
    },
    async shot(page, name) {
      const path = join(SHOTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async closeTab(tab) {
      expect(tab.foreign, `no third-party request: ${tab.foreign.join(', ')}`).to.deep.equal([]);
      expect(
        tab.consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e)),
        'no CSP violation',
      ).to.deep.equal([]);
      await tab.context.close();
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      for (const p of providers) p.destroy();
      await stack.stop();
      await tdb.drop();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
};

/** Whether anything in the page is wider than the window or sticks out of its card. */
export const overflows = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth)
      out.push(`page ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('header.top, .card, dl.details, table.list'))
      if (el.scrollWidth > el.clientWidth + 1 && !el.closest('.table-wrap'))
        out.push(`${el.tagName}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
    return out;
  });

/** Signs in through the dashboard's form and waits for the home screen. */
export const signIn = async (page: Page, email: string, password = PASSWORD) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
};

/**
 * A merchant registered through the API, its address confirmed with the e-mailed link, with its
 * wallet assigned and an API key.
 */
export const registerMerchant = async (
  gw: DashboardStack['gw'],
  email: string,
): Promise<{
  merchantId: string;
  wallet: { address: string };
  key: string;
  bearer: Record<string, string>;
}> => {
  const r = await gw.call('POST', '/auth/register', {
    body: { email, password: PASSWORD, merchantName: 'Corner Shop', blockchain: 'BASE' },
  });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  await confirmEmailFromMail(gw.url, gw.mailDir, email);
  const login = await gw.call('POST', '/auth/login', { body: { email, password: PASSWORD } });
  const bearer = { authorization: `Bearer ${login.body.data.access_token}` };
  const key = await gw.call('POST', '/api-keys', { body: { name: 'server' }, headers: bearer });
  expect(key.status).to.equal(201);
  const merchantId = (await gw.call('GET', '/auth/me', { headers: bearer })).body.data.merchant.id as string;
  return { merchantId, wallet: await merchantWallet(gw, merchantId), key: key.body.data.key, bearer };
};

/** Waits for a merchant's wallet, through the public wallet route. */
export const merchantWallet = (gw: DashboardStack['gw'], merchantId: string) =>
  waitFor(async () => {
    const w = await gw.call('GET', `/merchants/${merchantId}/wallet`);
    return w.status === 200 ? (w.body.data.wallet as { address: string; blockchain: string }) : undefined;
  }, 'wallet assignment');

/**
 * A registered merchant with what the screens show: one completed payment of `amount` USDC (a real
 * devnet transfer) and one open checkout link.
 */
export const merchantWithActivity = async (s: DashboardStack, email: string, amount: string) => {
  const merchant = await registerMerchant(s.gw, email);
  const { paymentId } = await s.pay({ merchantId: merchant.merchantId, to: merchant.wallet.address, amount });
  await waitFor(async () => {
    const p = await s.gw.call('GET', `/payments/${paymentId}`, { headers: merchant.bearer });
    return p.body.data?.status === 'completed' || undefined;
  }, 'payment completed');
  const session = await s.gw.call('POST', '/checkout-sessions', {
    headers: merchant.bearer,
    body: { amount: '5', currency: 'USDC', return_url: 'https://shop.example/thanks' },
  });
  expect(session.status, JSON.stringify(session.body)).to.equal(201);
  return { merchant, paymentId, checkoutUrl: session.body.data.url as string };
};

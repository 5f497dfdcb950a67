import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import { createTestDatabase, waitFor } from '@stablepay/platform/testing';
import { confirmEmailFromMail, startStack, type RunningStack } from '@stablepay/stack';
import { injectWallet, type TestWallet } from './wallet.js';
import { launchChromium } from './chromium.js';

export { waitFor };

export { launchChromium };

export const SHOTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** The merchant's site: the page's redirects land here and the test serves a stub for it. */
export const SHOP = 'http://shop.test';

export interface Customer {
  context: BrowserContext;
  page: Page;
  wallet?: TestWallet;
  /** Requests the page made to origins other than the checkout's and the stack's. */
  foreign: string[];
  consoleErrors: string[];
}

export interface Merchant {
  merchantId: string;
  key: Record<string, string>;
  wallet: { address: string; chainId: number; blockchain: string };
}

/** What the suite observes of the stack: its URLs and devnet, the merchant API, published events. */
export interface Harness {
  stack: RunningStack;
  gw: ReturnType<typeof api>;
  /** Where the notifier writes the stack's e-mails (.eml), the merchants' confirmation links among them. */
  mailDir: string;
  events: Array<{ type: string; body: any }>;
  /** Read-only SQL against the stack's database. */
  query(sql: string, bindings?: unknown[]): Promise<any[]>;
}

export interface CheckoutStack {
  h: Harness;
  shop: Merchant;
  browser: Browser;
  chain(name: string): DevnetChain;
  nextCustomer(): { address: string; privateKey: string };
  createSession(body: Record<string, unknown>): Promise<{ id: string; url: string }>;
  /** GET /checkout/sessions/:id with the merchant's key. */
  merchantSession(id: string): Promise<any>;
  /** A browser context as a customer: optionally with an injected wallet of a funded devnet account. */
  customer(opts?: {
    wallet?: boolean;
    privateKey?: string;
    viewport?: { width: number; height: number };
  }): Promise<Customer>;
  /** Waits for the session to be complete through the merchant API and payment.completed published. */
  expectPaid(sessionId: string): Promise<any>;
  transfer(
    from: string,
    token: 'USDC' | 'EURC',
    amount: string,
    chain?: string,
    to?: string,
  ): Promise<string>;
  shot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export const api = (baseUrl: string) => ({
  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  },
});

/**
 * The whole stack on a fresh PostgreSQL database, the devnet and the checkout page, with the
 * in-process bus: the browser suite is about the page, and the broker is covered by the services'
 * own suites. payment.completed is observed on the bus as every consumer would receive it.
 */
const startHarness = async (env: Record<string, string>): Promise<Harness & { close(): Promise<void> }> => {
  const tdb = await createTestDatabase();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-checkout-'));
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
    env: { SCRYPT_COST: '10', ...env },
  });
  const events: Harness['events'] = [];
  await stack.bus.subscribe({
    queue: 'checkout-browser-tests',
    routingKeys: ['payment.*', 'checkout.session.*'],
    handler: async ({ message }) => void events.push({ type: message.type, body: message.body }),
  });
  return {
    stack,
    gw: api(stack.gatewayUrl),
    mailDir: join(varDir, 'mail'),
    events,
    async query(sql, bindings = []) {
      const client = new pg.Client({ connectionString: tdb.url });
      await client.connect();
      try {
        return (await client.query(sql, bindings as any[])).rows;
      } finally {
        await client.end();
      }
    },
    async close() {
      await stack.stop();
      await tdb.drop();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
};

/** A merchant on BASE with an API key, once its wallet is assigned. */
export const register = async (
  { gw, stack, mailDir }: Harness,
  email: string,
  merchantName = 'Shop',
): Promise<Merchant> => {
  const password = 'correct horse battery staple';
  const r = await gw.call('POST', '/auth/register', {
    body: { email, password, merchantName, blockchain: 'BASE' },
  });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  await confirmEmailFromMail(stack.gatewayUrl, mailDir, email);
  const login = await gw.call('POST', '/auth/login', { body: { email, password } });
  const bearer = { authorization: `Bearer ${login.body.data.access_token}` };
  const key = await gw.call('POST', '/api-keys', { body: { name: 'server' }, headers: bearer });
  expect(key.status).to.equal(201);
  const merchantId = (await gw.call('GET', '/auth/me', { headers: bearer })).body.data.merchant.id as string;
  const wallet = await waitFor(async () => {
    const w = await gw.call('GET', `/merchants/${merchantId}/wallet`);
    return w.status === 200 ? w.body.data.wallet : undefined;
  }, 'wallet assignment');
  return { merchantId, key: { 'x-api-key': key.body.data.key }, wallet };
};

export const startCheckoutStack = async (env: Record<string, string> = {}): Promise<CheckoutStack> => {
  const h = await startHarness({
    // Every customer of the suite comes from 127.0.0.1: the per-address public limit would be theirs together.
    RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
    CHECKOUT_EXPIRY_SWEEP_MS: '500',
    ...env,
  });
  const shop = await register(h, `checkout-${Date.now()}@example.com`);
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const providers: JsonRpcProvider[] = [];
  let customerIndex = 0;
  const checkoutOrigin = new URL(h.stack.checkoutUrl).origin;
  const allowed = new Set([
    checkoutOrigin,
    new URL(h.stack.gatewayUrl).origin,
    new URL(h.stack.attestation.url).origin,
    ...h.stack.devnet.chains.map((c) => new URL(c.rpcUrl).origin),
    SHOP,
  ]);
  mkdirSync(SHOTS_DIR, { recursive: true });

  const chain = (name: string) => h.stack.devnet.chains.find((c) => c.name === name)!;
  const nextCustomer = () => h.stack.devnet.customers[customerIndex++ % h.stack.devnet.customers.length]!;
  const merchantSession = async (id: string) => {
    const r = await h.gw.call('GET', `/checkout/sessions/${id}`, { headers: shop.key });
    expect(r.status).to.equal(200);
    return r.body.data;
  };

  return {
    h,
    shop,
    browser,
    chain,
    nextCustomer,
    async createSession(body) {
      const r = await h.gw.call('POST', '/checkout/sessions', {
        headers: shop.key,
        body: { return_url: `${SHOP}/thanks`, cancel_url: `${SHOP}/cart`, ...body },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.data.url).to.equal(`${h.stack.checkoutUrl}?session=${r.body.data.id}`);
      return r.body.data;
    },
    merchantSession,
    async customer(opts = {}) {
      const context = await browser.newContext({
        viewport: opts.viewport ?? { width: 1280, height: 900 },
        locale: 'en-US',
      });
      contexts.push(context);
      const foreign: string[] = [];
      const consoleErrors: string[] = [];
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (!allowed.has(url.origin)) foreign.push(url.href);
        if (url.origin === SHOP)
          return route.fulfill({ contentType: 'text/html', body: `<h1>Shop: ${url.pathname}</h1>` });
        return route.continue();
      });
      let wallet: TestWallet | undefined;
      if (opts.wallet !== false) {
        const key = opts.privateKey ?? nextCustomer().privateKey;
        wallet = await injectWallet(
          context,
          key,
          h.stack.devnet.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
          chain('ETH').chainId,
        );
      }
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (err) => consoleErrors.push(`uncaught: ${err.message}`));
      return { context, page, wallet, foreign, consoleErrors };
    },
    async expectPaid(sessionId) {
      const session = await waitFor(
        async () => {
          const s = await merchantSession(sessionId);
          return s.status === 'complete' ? s : undefined;
        },
        `session ${sessionId} complete`,
        60_000,
      );
      expect(session.payment.status).to.equal('completed');
      await waitFor(
        () =>
          h.events.find(
            (e) => e.type === 'payment.completed' && e.body.data.payment_id === session.payment.id,
          ),
        'payment.completed published',
      );
      return session;
    },
    async transfer(privateKey, token, amount, chainName = 'BASE', to = shop.wallet.address) {
      const c = chain(chainName);
      const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
      providers.push(provider);
      const signer = new Wallet(privateKey, provider);
      const contract = new Contract(c.tokens[token]!, fiatTokenAbi(), signer);
      const tx = await contract.getFunction('transfer')(to, parseUnits(amount, 6));
      await tx.wait();
      return tx.hash as string;
    },
    async shot(page, name) {
      const path = join(SHOTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      for (const p of providers) p.destroy();
      await h.close();
    },
  };
};

/** Checks that a customer's page asked nothing of a third party and met no CSP refusal, then closes it. */
export const closeCustomer = async (c: Customer): Promise<void> => {
  expect(c.foreign, 'no third-party request').to.deep.equal([]);
  expect(
    c.consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e)),
    'no CSP violation',
  ).to.deep.equal([]);
  await c.context.close();
};

/**
 * What a failed test's pages showed: the address, the start of the visible text, the console's
 * errors and a screenshot of each, so that a failure on a loaded machine can be read afterwards.
 */
const describeCustomers = async (customers: Customer[], title: string): Promise<void> => {
  for (const [i, c] of customers.entries()) {
    const text = await c.page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((err: Error) => `(no text: ${err.message.split('\n')[0]})`);
    const shot = join(SHOTS_DIR, `failed-${title.replace(/\W+/g, '-').slice(0, 60)}-${i}.png`);
    await c.page.screenshot({ path: shot, fullPage: true, timeout: 10_000 }).catch(() => undefined);
    console.error(
      `  page ${i} of the failed test at ${c.page.url()}\n` +
        `    text: ${text.replace(/\s+/g, ' ').slice(0, 800)}\n` +
        `    console errors: ${JSON.stringify(c.consoleErrors.slice(-10))}\n    screenshot: ${shot}`,
    );
  }
};

/** A suite's customers: each opened through the returned function, and after each test checked and closed. */
export const trackedCustomers = (stack: () => CheckoutStack) => {
  const opened: Customer[] = [];
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await describeCustomers(opened, this.currentTest.title);
    for (const c of opened.splice(0)) await closeCustomer(c);
  });
  return async (opts?: Parameters<CheckoutStack['customer']>[0]): Promise<Customer> => {
    const c = await stack().customer(opts);
    opened.push(c);
    return c;
  };
};

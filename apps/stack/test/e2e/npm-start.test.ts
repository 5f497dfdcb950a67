import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { api, paymentBody, waitFor } from '../support.js';

const repoRoot = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

/** A JSON-RPC endpoint answers a call; every other address the banner prints answers a GET. */
const answers = async (url: string, rpcUrls: string[]) => {
  const res = rpcUrls.includes(url)
    ? await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
    : await fetch(url);
  return { url, status: res.status };
};

/** Every URL of the start banner answers, and the banner names every address devnet.json holds. */
const expectBannerUrlsAnswer = async (banner: string, devnet: any) => {
  // A session's url is printed as a pattern (`?session=<id>`), not an address to open.
  const printed = [...banner.matchAll(/https?:\/\/[^\s)]+/g)]
    .map((m) => m[0])
    .filter((u) => !u.includes('<'));
  const rpcUrls: string[] = devnet.chains.map((c: { rpcUrl: string }) => c.rpcUrl);
  const stated = [
    devnet.gatewayUrl,
    devnet.docsUrl,
    devnet.checkoutUrl,
    devnet.widgetExampleUrl,
    devnet.dashboardUrl,
    devnet.attestationUrl,
    ...rpcUrls,
  ];
  expect(printed).to.include.members(stated);
  const results = await Promise.all(printed.map((url) => answers(url, rpcUrls)));
  // An API's base address answers with its 404 envelope; pages and RPC endpoints answer in full.
  const apiBases = [devnet.gatewayUrl, devnet.attestationUrl];
  const unanswered = results.filter((r) => r.status >= (apiBases.includes(r.url) ? 500 : 400));
  expect(unanswered).to.deep.equal([]);
};

const SHOP_ORIGIN = 'http://localhost:3000';

/** The origin embed.html lets frame it, asked as the widget's loader asks from a page of `origin`. */
const framingOf = async (checkoutUrl: string, query: Record<string, string>): Promise<string> => {
  const res = await fetch(`${new URL('embed.html', checkoutUrl)}?${new URLSearchParams(query)}`);
  expect(res.status).to.equal(200);
  return /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')![1]!;
};

/** `npm start` as a newcomer runs it: embedded PGlite, in-process bus, nothing configured. */
describe('npm start (embedded defaults)', function () {
  this.timeout(180_000);
  let varDir: string;
  let child: ChildProcess | undefined;
  const ports = {
    GATEWAY_PORT: '18480',
    CHECKOUT_PORT: '18486',
    DASHBOARD_PORT: '18487',
    PAYMENTS_PORT: '18481',
    CHAIN_WATCHER_PORT: '18482',
    REFUNDS_PORT: '18483',
    INVOICING_PORT: '18484',
    NOTIFIER_PORT: '18485',
    DEVNET_PORT: '18545',
    ATTESTATION_PORT: '18790',
  };

  const start = async () => {
    // What `npm start` runs.
    child = spawn(process.execPath, [join(repoRoot, 'scripts/start.mjs')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        VAR_DIR: varDir,
        LOG_LEVEL: 'error',
        // A developer's own shop page, allowed to open the widget by merchant id.
        WIDGET_ORIGINS: SHOP_ORIGIN,
        ...ports,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    await waitFor(
      () => existsSync(join(varDir, 'devnet.json')) && out.includes('Demo API key'),
      'stack start',
      120_000,
    );
    return { out, devnet: JSON.parse(readFileSync(join(varDir, 'devnet.json'), 'utf8')) };
  };

  const stop = async () => {
    if (!child) return;
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    child = undefined;
  };

  before(() => {
    varDir = mkdtempSync(join(tmpdir(), 'sp-start-'));
  });
  after(async () => {
    await stop();
    rmSync(varDir, { recursive: true, force: true });
  });

  it('prints and writes what a newcomer needs, and keeps data across a restart', async () => {
    const first = await start();
    expect(first.devnet.gatewayUrl).to.equal(`http://127.0.0.1:${ports.GATEWAY_PORT}`);
    expect(first.devnet.merchant).to.include.keys('id', 'apiKey', 'email', 'password');
    expect(first.out).to.contain(first.devnet.merchant.apiKey);
    expect(first.devnet.chains.map((c: { name: string }) => c.name)).to.have.members([
      'ETH',
      'BASE',
      'MATIC',
    ]);
    for (const c of first.devnet.chains) {
      expect(c).to.include.keys('name', 'chainId', 'rpcUrl', 'cctpDomain', 'tokens', 'cctp');
      expect(c.cctp).to.include.keys('tokenMessenger', 'messageTransmitter', 'tokenMinter');
    }
    // The stand-in for Circle's attestation API runs with the stack, at the address devnet.json names.
    expect(first.devnet.attestationUrl).to.match(/^http:\/\/127\.0\.0\.1:18790\/?$/);
    expect((await fetch(new URL('v2/publicKeys', `${first.devnet.attestationUrl}/`))).status).to.equal(200);
    // The checkout page is served where devnet.json and the banner say, with its strict CSP.
    expect(first.devnet.checkoutUrl).to.equal(`http://127.0.0.1:${ports.CHECKOUT_PORT}/`);
    expect(first.out).to.contain(first.devnet.checkoutUrl);
    const page = await fetch(first.devnet.checkoutUrl);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('<div id="app"');
    expect(page.headers.get('content-security-policy')).to.contain("script-src 'self'");
    const config = await (await fetch(new URL('config.json', first.devnet.checkoutUrl))).json();
    expect(config).to.deep.equal({ gatewayUrl: first.devnet.gatewayUrl });
    // So is the merchant dashboard, and the gateway lets its origin call the dashboard routes.
    expect(first.devnet.dashboardUrl).to.equal(`http://127.0.0.1:${ports.DASHBOARD_PORT}/`);
    expect(first.out).to.contain(first.devnet.dashboardUrl);
    const dashboard = await fetch(first.devnet.dashboardUrl);
    expect(dashboard.status).to.equal(200);
    expect(dashboard.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
    const preflight = await fetch(`${first.devnet.gatewayUrl}/auth/login`, {
      method: 'OPTIONS',
      headers: {
        origin: `http://127.0.0.1:${ports.DASHBOARD_PORT}`,
        'access-control-request-method': 'POST',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(
      `http://127.0.0.1:${ports.DASHBOARD_PORT}`,
    );
    expect(first.devnet.chains.find((c: { name: string }) => c.name === 'BASE').rpcUrl).to.equal(
      'http://127.0.0.1:18546',
    );
    expect(first.devnet.customers[0]).to.include.keys('address', 'privateKey');
    await expectBannerUrlsAnswer(first.out, first.devnet);
    const gw = api(first.devnet.gatewayUrl);
    const key = { 'x-api-key': first.devnet.merchant.apiKey };

    const wallet = await waitFor(
      async () => {
        const w = await gw.call('GET', `/merchants/${first.devnet.merchant.id}/wallet`);
        return w.status === 200 ? w.body.data.wallet : undefined;
      },
      'wallet',
      60_000,
      500, // public routes are rate limited per IP: poll gently
    );
    const created = await waitFor(
      async () => {
        const r = await gw.call('POST', '/payments/create-public', {
          body: paymentBody(first.devnet.merchant.id, { toAddress: wallet.address, chainId: wallet.chainId }),
        });
        if (r.status !== 201)
          throw new Error(`create-public answered ${r.status}: ${JSON.stringify(r.body)}`);
        return r;
      },
      'payment creation',
      60_000,
      500,
    );
    expect((await gw.call('GET', '/openapi.json')).status).to.equal(200);

    // The widget: the example page beside it, the shop page WIDGET_ORIGINS lists, and a session's own
    // shop (its return URL's origin, which the checkout server reads from the gateway) may frame it.
    const merchantId = first.devnet.merchant.id as string;
    const checkoutOrigin = new URL(first.devnet.checkoutUrl).origin;
    expect(
      await framingOf(first.devnet.checkoutUrl, { merchant: merchantId, origin: checkoutOrigin }),
    ).to.equal("'self'");
    expect(await framingOf(first.devnet.checkoutUrl, { merchant: merchantId, origin: SHOP_ORIGIN })).to.equal(
      SHOP_ORIGIN,
    );
    expect(
      await framingOf(first.devnet.checkoutUrl, { merchant: merchantId, origin: 'http://elsewhere.example' }),
    ).to.equal("'none'");
    const session = await gw.call('POST', '/checkout/sessions', {
      headers: key,
      body: { amount: '5', currency: 'USDC', return_url: 'http://shop.example:8000/thanks' },
    });
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    expect(
      await framingOf(first.devnet.checkoutUrl, {
        session: session.body.data.id as string,
        origin: 'http://shop.example:8000',
      }),
    ).to.equal('http://shop.example:8000');
    await stop();

    const second = await start();
    expect(second.devnet.merchant.id).to.equal(first.devnet.merchant.id);
    expect(second.devnet.merchant.apiKey, 'the stored key still works').to.equal(
      first.devnet.merchant.apiKey,
    );
    const list = await api(second.devnet.gatewayUrl).call('GET', '/payments/api/list', { headers: key });
    expect(list.status).to.equal(200);
    expect(list.body.data.payments.map((p: { id: string }) => p.id)).to.include(created.body.data.paymentId);
    // The wallet (custody seed under the stored key) and the chains' contracts survived too.
    const again = await api(second.devnet.gatewayUrl).call(
      'GET',
      `/merchants/${first.devnet.merchant.id}/wallet`,
    );
    expect(again.body.data.wallet.address).to.equal(wallet.address);
    expect(second.devnet.chains).to.deep.equal(first.devnet.chains);
  });
});

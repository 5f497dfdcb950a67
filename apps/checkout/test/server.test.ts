import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { waitFor } from '@stablepay/platform/testing';
import { startCheckoutServer, type CheckoutServer } from '../server/src/server.js';

describe('checkout page server', () => {
  let dir: string;
  let server: CheckoutServer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sp-checkout-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<div id="app"></div>');
    writeFileSync(join(dir, 'embed.html'), '<div id="app"></div>');
    writeFileSync(join(dir, 'assets', 'main-abc.js'), 'export {};');
    writeFileSync(join(dir, 'widget.js'), '(()=>{})();');
    writeFileSync(join(dir, 'widget-example.html'), '<button data-stablepay-merchant>Pay</button>');
    server = await startCheckoutServer({
      dir,
      host: '127.0.0.1',
      port: 0,
      widgetOrigins: ['https://shop.example', 'http://127.0.0.1:9999/'],
    });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers config.json and readiness with 503 until configured, then with the gateway', async () => {
    expect((await fetch(new URL('config.json', server.url))).status).to.equal(503);
    expect((await fetch(new URL('readyz', server.url))).status).to.equal(503);
    expect((await fetch(new URL('healthz', server.url))).status).to.equal(200);
    server.configure({ gatewayUrl: 'http://127.0.0.1:8080' }, [
      'http://127.0.0.1:8080',
      'http://127.0.0.1:8545/',
      'http://127.0.0.1:8545',
    ]);
    const res = await fetch(new URL('config.json', server.url));
    expect(await res.json()).to.deep.equal({ gatewayUrl: 'http://127.0.0.1:8080' });
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect((await fetch(new URL('readyz', server.url))).status).to.equal(200);
  });

  it('serves the page under a strict CSP that no page may frame', async () => {
    const page = await fetch(server.url);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.contain("default-src 'none'").and.contain("script-src 'self'");
    expect(csp).to.contain("connect-src 'self' http://127.0.0.1:8080 http://127.0.0.1:8545;");
    expect(csp).to.contain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).to.equal('no-cache');
    const embed = await fetch(new URL('embed.html', server.url));
    expect(embed.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
    const asset = await fetch(new URL('assets/main-abc.js', server.url));
    expect(asset.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).to.contain('immutable');
    expect(
      (await fetch(new URL('widget.js', server.url))).headers.get('access-control-allow-origin'),
    ).to.equal('*');
  });

  const frameAncestors = async (query: string) => {
    const res = await fetch(new URL(`embed.html?${query}`, server.url));
    return /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy')!)![1];
  };

  it("lets embed.html be framed only by a listed shop origin the loader names, or the checkout's own", async () => {
    const merchant = 'merchant=sp_live_00000000-0000-4000-8000-000000000000';
    const ask = (origin: string) => frameAncestors(`${merchant}&origin=${encodeURIComponent(origin)}`);
    expect(await ask('https://shop.example')).to.equal('https://shop.example');
    expect(await ask('http://127.0.0.1:9999')).to.equal('http://127.0.0.1:9999');
    expect(await ask(new URL(server.url).origin)).to.equal("'self'");
    for (const refused of [
      'https://evil.example',
      'https://shop.example.evil.example',
      'https://shop.example/path',
      'https://shop.example https://evil.example',
      "https://shop.example; script-src 'unsafe-inline'",
      'javascript:alert(1)',
      'null',
      '*',
    ])
      expect(await ask(refused), refused).to.equal("'none'");
    expect(await frameAncestors(merchant)).to.equal("'none'");
    // A session's URLs decide for it, not the list: here the gateway does not know the session.
    expect(await frameAncestors('session=cs_live_nope&origin=https%3A%2F%2Fshop.example')).to.equal("'none'");
    expect(await frameAncestors('session=..%2F..%2Fx&origin=https%3A%2F%2Fshop.example')).to.equal("'none'");
    expect(
      (await fetch(new URL('?session=cs_x&origin=https%3A%2F%2Fshop.example', server.url))).headers.get(
        'content-security-policy',
      ),
    ).to.contain("frame-ancestors 'none'");
  });

  it('serves the example shop page under the policy a shop needs: our script and our frame', async () => {
    const csp = (await fetch(new URL('widget-example.html', server.url))).headers.get(
      'content-security-policy',
    )!;
    expect(csp).to.contain("script-src 'self'").and.contain("frame-src 'self'");
    expect(csp).to.contain("frame-ancestors 'none'").and.not.contain('connect-src');
  });

  it('sends HSTS on every answer, as the gateway does (browsers honour it over HTTPS only)', async () => {
    for (const path of ['', 'embed.html', 'widget.js', 'config.json', 'healthz', 'nope.js'])
      expect(
        (await fetch(new URL(path, server.url))).headers.get('strict-transport-security'),
        path,
      ).to.equal('max-age=31536000; includeSubDomains');
  });

  it('answers HEAD with the length, refuses writes and never leaves its folder', async () => {
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).to.equal(String('<div id="app"></div>'.length));
    expect((await fetch(server.url, { method: 'POST' })).status).to.equal(405);
    expect((await fetch(new URL('/%2e%2e/%2e%2e/etc/passwd', server.url))).status).to.equal(404);
    expect((await fetch(new URL('/nope.js', server.url))).status).to.equal(404);
  });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

describe('checkout page deployment (its own process)', function () {
  this.timeout(30_000);
  const main = fileURLToPath(new URL('../server/dist/main.js', import.meta.url));
  const run = (env: Record<string, string>) =>
    spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('refuses to start without the gateway URL, naming the variable', async () => {
    const child = run({ PORT: '0' });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).to.equal(1);
    expect(err).to.contain('GATEWAY_URL');
  });

  it('serves the built page from its environment, ready at once, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child = run({
      PORT: String(port),
      GATEWAY_URL: 'https://api.shop.test',
      CONNECT_SRC: 'https://rpc.chain.test/v1, https://iris.test',
    });
    try {
      const base = `http://127.0.0.1:${port}/`;
      const ready = await waitFor(async () => {
        const res = await fetch(new URL('readyz', base));
        return res.status === 200 ? res : undefined;
      });
      expect(ready.status).to.equal(200);
      expect(await (await fetch(new URL('config.json', base))).json()).to.deep.equal({
        gatewayUrl: 'https://api.shop.test',
      });
      const page = await fetch(base);
      expect(await page.text()).to.contain('<script');
      expect(page.headers.get('content-security-policy')).to.contain(
        "connect-src 'self' https://api.shop.test https://rpc.chain.test https://iris.test;",
      );
    } finally {
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).to.equal(0);
    }
  });
});

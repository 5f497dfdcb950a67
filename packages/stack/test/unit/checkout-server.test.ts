import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startCheckoutServer, type CheckoutServer } from '../../src/checkout-server.js';

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
    server = await startCheckoutServer({ dir, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers config.json with 503 until configured, then with the gateway', async () => {
    expect((await fetch(new URL('config.json', server.url))).status).to.equal(503);
    server.configure({ gatewayUrl: 'http://127.0.0.1:8080' }, [
      'http://127.0.0.1:8080',
      'http://127.0.0.1:8545/',
      'http://127.0.0.1:8545',
    ]);
    const res = await fetch(new URL('config.json', server.url));
    expect(await res.json()).to.deep.equal({ gatewayUrl: 'http://127.0.0.1:8080' });
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('serves the page under a strict CSP that only embed.html relaxes for framing', async () => {
    const page = await fetch(server.url);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.contain("default-src 'none'").and.contain("script-src 'self'");
    expect(csp).to.contain("connect-src 'self' http://127.0.0.1:8080 http://127.0.0.1:8545;");
    expect(csp).to.contain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).to.equal('no-cache');
    const embed = await fetch(new URL('embed.html', server.url));
    expect(embed.headers.get('content-security-policy')).to.contain('frame-ancestors *');
    const asset = await fetch(new URL('assets/main-abc.js', server.url));
    expect(asset.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).to.contain('immutable');
    expect(
      (await fetch(new URL('widget.js', server.url))).headers.get('access-control-allow-origin'),
    ).to.equal('*');
  });

  it('answers HEAD with the length, refuses writes and never leaves its folder', async () => {
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).to.equal(String('<div id="app"></div>'.length));
    expect((await fetch(server.url, { method: 'POST' })).status).to.equal(405);
    expect((await fetch(new URL('/%2e%2e/%2e%2e/etc/passwd', server.url))).status).to.equal(404);
    expect((await fetch(new URL('/nope.js', server.url))).status).to.equal(404);
  });
});

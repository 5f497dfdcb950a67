import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { routes } from '@stablepay/contracts';
import { startStackHarness, type Merchant, type StackHarness } from './harness.js';
import { paymentBody } from '../support.js';

/**
 * The root causes an outside fuzzer found, checked through the gateway on the whole stack: every
 * malformed request is a 4xx in the error envelope, never a 500 or an empty body.
 */
describe('bad input through the gateway (whole stack)', function () {
  this.timeout(120_000);
  let h: StackHarness;
  let shop: Merchant;

  before(async () => {
    // Loopback webhook receivers are allowed, so a refused endpoint is refused for its text alone.
    h = await startStackHarness({ ALLOW_INSECURE_WEBHOOKS: 'true' });
    shop = await h.register(`fuzz-${Date.now()}@example.com`);
  });
  after(() => h?.close());

  const credentialFor = (auth: string) => (auth === 'jwt' ? shop.bearer : auth === 'public' ? {} : shop.key);
  const envelope = (body: unknown) => expect(body).to.include({ success: false });

  it('answers a path parameter that is not valid percent-encoding with 400 on every :id route', async () => {
    const withParams = routes.filter((r) => r.path.includes('/:'));
    expect(withParams.length).to.be.greaterThan(10);
    for (const route of withParams) {
      const path = route.path.replace(/:[A-Za-z]+/g, '%E0%A4%A');
      const r = await h.gw.call(route.method.toUpperCase(), path, {
        headers: credentialFor(route.auth),
        body: route.method === 'post' || route.method === 'put' ? {} : undefined,
      });
      // Refused before any route matches, planned routes included.
      expect(r.status, `${route.method} ${route.path}`).to.equal(400);
      envelope(r.body);
    }
  });

  it('refuses NUL characters and lone surrogates in text on every kind of route', async () => {
    const cases: Array<[string, string, Record<string, string>, unknown]> = [
      ['POST', '/api-keys', shop.bearer, { name: 'key\u0000' }],
      [
        'POST',
        '/merchant-webhooks/api/create',
        shop.key,
        { url: 'http://127.0.0.1:9/x', events: ['payment.completed'], description: 'a\uD800' },
      ],
      [
        'POST',
        '/auth/register',
        {},
        {
          email: 'nul@example.com',
          password: 'correct horse battery staple',
          merchantName: 'Sh\u0000p',
          blockchain: 'BASE',
        },
      ],
      ['GET', `/payments/api/list?search=${encodeURIComponent('abc\u0000')}`, shop.key, undefined],
    ];
    for (const [method, path, headers, body] of cases) {
      const r = await h.gw.call(method, path, { headers, body });
      expect(r.status, `${method} ${path}`).to.equal(400);
      envelope(r.body);
      expect(
        r.body.details.map((d: { code: string }) => d.code),
        path,
      ).to.include('invalid_text');
    }
    const stored = await h.query(
      `select count(*)::int as n from gateway.users where email = 'nul@example.com'`,
    );
    expect(stored[0]!.n).to.equal(0);
  });

  it('answers a body that does not match its Content-Encoding with 400, proxied or not', async () => {
    for (const [path, headers] of [
      ['/api-keys', shop.bearer],
      ['/refunds/api/create', shop.key],
    ] as const) {
      const res = await fetch(`${h.stack.gatewayUrl}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: '{"name":"plain text, not gzip"}',
      });
      expect(res.status, path).to.equal(400);
      envelope(await res.json());
    }
    const zipped = await fetch(`${h.stack.gatewayUrl}/api-keys`, {
      method: 'POST',
      headers: { ...shop.bearer, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"name":"zipped"}'),
    });
    expect(zipped.status).to.equal(201);
  });

  it('answers oversized headers and broken framing in the envelope', async () => {
    const port = Number(new URL(h.stack.gatewayUrl).port);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const huge = await raw(`GET /payments/${'a'.repeat(20_000)}/status HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(huge).to.match(/^HTTP\/1\.1 431 /);
    envelope(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)));
    const broken = await raw('POST /payments/create-public HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n');
    expect(broken).to.match(/^HTTP\/1\.1 400 /);
  });

  it('refuses query parameters a route does not define, bracket forms and hexadecimal numbers', async () => {
    for (const qs of ['status[$ne]=x', 'limit[$gt]=0', 'limit=0x10', 'colour=red']) {
      const r = await h.gw.call('GET', `/payments/api/list?${qs}`, { headers: shop.key });
      expect(r.status, qs).to.equal(400);
      envelope(r.body);
    }
  });

  it('refuses a cross-chain payment with neither bridgeKit nor feeQuote, and stores nothing', async () => {
    const body = paymentBody(shop.merchantId, {
      isCrossChain: true,
      chainId: shop.wallet.chainId,
      toAddress: shop.wallet.address,
    });
    const r = await h.gw.call('POST', '/payments/create-public', { body });
    expect(r.status).to.equal(400);
    const rows = await h.query('select count(*)::int as n from payments.payments where tx_hash = $1', [
      String(body.txHash).toLowerCase(),
    ]);
    expect(rows[0]!.n).to.equal(0);
  });

  it('deletes a webhook endpoint with 200, then answers 404 for it', async () => {
    const created = await h.gw.call('POST', '/merchant-webhooks/api/create', {
      headers: shop.key,
      body: { url: 'http://127.0.0.1:9/stablepay', events: ['payment.completed'] },
    });
    expect(created.status).to.equal(201);
    const id = created.body.data.id;
    const del = await h.gw.call('DELETE', `/merchant-webhooks/api/${id}`, { headers: shop.key });
    expect(del.status).to.equal(200);
    expect(del.body.success).to.equal(true);
    expect((await h.gw.call('GET', `/merchant-webhooks/api/${id}`, { headers: shop.key })).status).to.equal(
      404,
    );
  });

  it('serves the invoice list from the invoicing service (empty before any withdrawal)', async () => {
    const invoices = await h.gw.call('GET', '/invoices/api/list', { headers: shop.key });
    expect(invoices.status).to.equal(200);
    expect(invoices.body).to.deep.equal({ success: true, data: [] });
  });
});

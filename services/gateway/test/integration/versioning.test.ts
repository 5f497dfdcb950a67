import { API_VERSION, deprecationOf } from '@stablepay/contracts/openapi/versioning';
import { expect } from 'chai';
import {
  call,
  routingCatalogue,
  startEchoUpstream,
  startTestGateway,
  type EchoUpstream,
  type TestGateway,
} from './harness.js';

const FEE_QUOTE = { signature: 'ab'.repeat(32), validUntil: 1_900_000_000 };
const PAYMENT = {
  txHash: `0x${'1'.repeat(64)}`,
  blockchain: 'BASE',
  merchantId: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
};

/** RFC 9745's `@<unix seconds>` and RFC 8594's HTTP-date of an ISO day. */
const rfc9745 = (day: string) => `@${Date.parse(`${day}T00:00:00Z`) / 1000}`;
const httpDate = (day: string) => new Date(`${day}T00:00:00Z`).toUTCString();

describe('gateway: API version and deprecation headers', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url, {}, { catalogue: routingCatalogue });
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it('names the API version on every answer: forwarded, refused, unknown path', async () => {
    const answers = await Promise.all([
      call(gw.url, 'GET', '/chains'),
      call(gw.url, 'GET', '/payments/api/list'),
      call(gw.url, 'GET', '/no/such/path'),
      call(gw.url, 'POST', '/auth/login', { body: {} }),
    ]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 401, 404, 400]);
    for (const answer of answers) expect(answer.headers.get('stablepay-version')).to.equal(API_VERSION);
  });

  it('announces the legacy fee quote route as deprecated, with its sunset, on every answer', async () => {
    const { since, sunset } = deprecationOf('getCctpFee')!;
    const res = await call(gw.url, 'GET', '/payments/cctp-fee?destinationChain=BASE&productPrice=10');
    expect(res.status).to.equal(200);
    expect(res.headers.get('deprecation')).to.equal(rfc9745(since));
    expect(res.headers.get('sunset')).to.equal(httpDate(sunset));
    expect(res.headers.get('sunset')).to.equal('Mon, 31 May 2027 00:00:00 GMT');
  });

  it('announces feeQuote in POST /payments/create-public, and forwards the body as sent', async () => {
    const { since, sunset } = deprecationOf('createPublicPayment')!;
    const body = { ...PAYMENT, isCrossChain: true, feeQuote: FEE_QUOTE };
    const res = await call(gw.url, 'POST', '/payments/create-public', { body });
    expect(res.status).to.equal(201);
    expect(res.headers.get('deprecation')).to.equal(rfc9745(since));
    expect(res.headers.get('sunset')).to.equal(httpDate(sunset));
    expect(JSON.parse(upstream.seen.at(-1)!.body)).to.deep.equal(body);
  });

  it('says nothing of deprecation to a create-public without feeQuote', async () => {
    const res = await call(gw.url, 'POST', '/payments/create-public', { body: PAYMENT });
    expect(res.status).to.equal(201);
    expect(res.headers.get('deprecation')).to.equal(null);
    expect(res.headers.get('sunset')).to.equal(null);
    expect(JSON.parse(upstream.seen.at(-1)!.body)).to.deep.equal(PAYMENT);
  });

  it('reads a feeQuote body once when it also carries an Idempotency-Key, and replays it', async () => {
    const body = { ...PAYMENT, txHash: `0x${'2'.repeat(64)}`, feeQuote: FEE_QUOTE };
    const headers = { 'idempotency-key': `versioning-${Date.now()}` };
    const before = upstream.seen.length;
    const first = await call(gw.url, 'POST', '/payments/create-public', { body, headers });
    const again = await call(gw.url, 'POST', '/payments/create-public', { body, headers });
    expect([first.status, again.status]).to.deep.equal([201, 201]);
    expect(upstream.seen.length - before).to.equal(1);
    expect(JSON.parse(upstream.seen.at(-1)!.body)).to.deep.equal(body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    for (const res of [first, again]) expect(res.headers.get('deprecation')).to.match(/^@\d+$/);
  });

  it('lets a browser read the version and deprecation headers', async () => {
    const res = await call(gw.url, 'GET', '/chains', { headers: { origin: 'https://shop.example' } });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of ['stablepay-version', 'deprecation', 'sunset']) expect(exposed).to.contain(name);
  });
});

import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import {
  bearer,
  call,
  createKey,
  signUp,
  startEchoUpstream,
  startTestGateway,
  type EchoUpstream,
  type TestGateway,
} from './harness.js';

const randomKey = () => `sk_live_${randomBytes(24).toString('base64url')}`;

describe('gateway: invalid API keys are throttled per address', function () {
  this.timeout(60_000);
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let key: string;
  let accessToken: string;

  before(async () => {
    upstream = await startEchoUpstream();
    // Behind a proxy on loopback, so that the test can speak from two client addresses.
    gw = await startTestGateway(upstream.url, {
      RATE_LIMIT_FAILED_KEYS_PER_MINUTE: '5',
      TRUSTED_PROXIES: 'loopback',
    });
    const account = await signUp(gw.url);
    accessToken = account.accessToken;
    key = (await createKey(gw.url, account)).key;
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  const from = (address: string, apiKey: string, path = '/payments/api/list') =>
    call(gw.url, 'GET', path, { headers: { 'x-api-key': apiKey, 'x-forwarded-for': address } });

  it('answers 429 with Retry-After to an address guessing keys, while other addresses keep working', async () => {
    const guesser = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await from(guesser, randomKey())).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429]);

    // A valid key from the throttled address waits too: the address, not the key, is throttled.
    const throttled = await from(guesser, key);
    expect(throttled.status).to.equal(429);
    expect(throttled.body).to.deep.equal({
      success: false,
      error: 'Too many invalid API keys from this address',
      details: [],
    });
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(1, 60);
    // On every route that takes a key, and not on the dashboard's bearer routes.
    expect((await from(guesser, key, '/refunds/api/list')).status).to.equal(429);
    const dashboard = await call(gw.url, 'GET', '/api-keys', {
      headers: { ...bearer(accessToken), 'x-forwarded-for': guesser },
    });
    expect(dashboard.status).to.equal(200);

    // Another address: its valid key works, and its own first invalid keys are plain 401s.
    expect((await from('198.51.100.8', key)).status).to.equal(200);
    expect((await from('198.51.100.8', randomKey())).status).to.equal(401);
  });

  it('does not count valid keys, nor requests without a key', async () => {
    const busy = '198.51.100.20';
    for (let i = 0; i < 10; i++) expect((await from(busy, key)).status).to.equal(200);
    for (let i = 0; i < 6; i++)
      expect(
        (
          await call(gw.url, 'GET', '/payments/api/list', {
            headers: { 'x-forwarded-for': busy },
          })
        ).status,
      ).to.equal(401);
    expect((await from(busy, key)).status).to.equal(200);
  });
});

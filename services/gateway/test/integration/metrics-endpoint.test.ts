import { TEST_METRICS_TOKEN } from '@stablepay/platform/testing';
import { expect } from 'chai';
import {
  call,
  closedPortUrl,
  startReplica,
  startTestGateway,
  type Replica,
  type TestGateway,
} from './harness.js';

describe('gateway: /metrics on the public port', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let withoutToken: Replica;

  before(async () => {
    // bootService configures METRICS_TOKEN; the replica is started without one.
    gw = await startTestGateway(await closedPortUrl());
    withoutToken = await startReplica(gw, await closedPortUrl());
  });
  after(async () => {
    await withoutToken?.stop();
    await gw?.close();
  });

  it('answers 401 to a scrape without the metrics token, and the metrics to one with it', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer not-the-token' },
      { 'x-api-key': TEST_METRICS_TOKEN },
    ]) {
      const refused = await call(gw.url, 'GET', '/metrics', { headers });
      expect(refused.status).to.equal(401);
      expect(refused.body).to.deep.equal({
        success: false,
        error: 'Metrics need the metrics bearer token',
        details: [],
      });
      expect(refused.text).not.to.contain('http_request_duration_seconds');
    }
    const scrape = await call(gw.url, 'GET', '/metrics', {
      headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
    });
    expect(scrape.status).to.equal(200);
    expect(scrape.headers.get('content-type')).to.match(/^text\/plain/);
    expect(scrape.text).to.contain('http_request_duration_seconds_count{');
  });

  it('is not served at all without METRICS_TOKEN', async () => {
    const res = await call(withoutToken.url, 'GET', '/metrics', {
      headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
    });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.include({ success: false, error: 'No route for GET /metrics' });
  });
});

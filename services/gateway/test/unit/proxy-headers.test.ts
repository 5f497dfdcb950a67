import { expect } from 'chai';
import { clientResponseHeaders, upstreamRequestHeaders } from '../../src/proxy/headers.js';

const identity = {
  internalToken: 'signed',
  requestId: 'req-1',
  correlationId: 'corr-1',
  clientIp: '203.0.113.9',
  protocol: 'https',
  host: 'api.example',
};

describe('forwarded headers', () => {
  it('drops client credentials, hop-by-hop headers and what the gateway sets itself', () => {
    const out = upstreamRequestHeaders(
      {
        'x-api-key': 'sk_live_x',
        authorization: 'Bearer t',
        cookie: 'a=b',
        'x-internal-token': 'forged',
        connection: 'keep-alive, x-hop',
        'x-hop': 'listed in Connection',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        upgrade: 'websocket',
        'proxy-authorization': 'Basic x',
        host: 'api.example',
        'x-forwarded-for': '10.0.0.1',
        'x-request-id': 'client-chosen',
        'content-type': 'application/json',
        'content-length': '12',
        'idempotency-key': 'k1',
        'user-agent': 'curl',
      },
      identity,
    );
    expect(out).to.deep.equal({
      'content-type': 'application/json',
      'content-length': '12',
      'idempotency-key': 'k1',
      'user-agent': 'curl',
      'x-internal-token': 'signed',
      'x-request-id': 'req-1',
      'x-correlation-id': 'corr-1',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example',
    });
  });

  it("keeps the service's answer headers except connection, CORS, cookies and server banners", () => {
    const out = clientResponseHeaders({
      'content-type': 'application/pdf',
      'content-length': '10',
      'content-disposition': 'attachment',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'access-control-allow-origin': '*',
      'set-cookie': ['a=b'],
      'x-powered-by': 'Express',
      'x-request-id': 'upstream-id',
    });
    expect(out).to.deep.equal({
      'content-type': 'application/pdf',
      'content-length': '10',
      'content-disposition': 'attachment',
      'cache-control': 'no-store',
    });
  });
});

import { Agent, type Server } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { errorHandler, internalTokenSigner } from '@stablepay/platform';
import { quietLogger } from '@stablepay/platform/testing';
import { expect } from 'chai';
import express from 'express';
import { PROXY_BODY_LIMIT } from '../../src/perimeter/body.js';
import { forwardTo } from '../../src/proxy/forward.js';

const ANSWER =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n{"ok":true}';

/**
 * A service that answers the first request of each connection and resets the connection on the
 * next one, as a service closing an idle keep-alive connection at the wrong moment looks.
 */
const startFlakyService = async () => {
  const sockets: Socket[] = [];
  const posts = { received: 0 };
  const server = createServer((socket) => {
    sockets.push(socket);
    let requests = 0;
    socket.on('data', (chunk: Buffer) => {
      requests++;
      if (chunk.toString('latin1').startsWith('POST ')) posts.received++;
      if (requests === 1) socket.write(ANSWER);
      else socket.resetAndDestroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, sockets, posts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

describe('forwarding over pooled connections', () => {
  let service: Awaited<ReturnType<typeof startFlakyService>>;
  let gateway: Server;
  let base: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    service = await startFlakyService();
    const logger = quietLogger();
    const forward = forwardTo(
      { service: 'payments', url: new URL(service.url), agent },
      {
        internalToken: internalTokenSigner('x'.repeat(32)),
        timeoutMs: 2000,
        maxBodyBytes: PROXY_BODY_LIMIT,
        logger,
      },
    );
    const app = express();
    app.get('/thing', forward);
    app.post('/thing', forward);
    app.use(errorHandler(logger));
    gateway = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  });
  after(async () => {
    agent.destroy();
    gateway.closeAllConnections();
    await new Promise((r) => gateway.close(r));
    for (const s of service.sockets) s.destroy();
    await new Promise((r) => service.server.close(r));
  });

  it('sends a GET again on a fresh connection when a reused one is reset', async () => {
    expect((await fetch(`${base}/thing`)).status).to.equal(200);
    const again = await fetch(`${base}/thing`);
    expect(again.status).to.equal(200);
    expect(await again.json()).to.deep.equal({ ok: true });
    expect(service.sockets).to.have.length(2);
  });

  it('never sends a POST twice: the client gets 503 and decides', async () => {
    // A GET right before leaves in the pool a connection that has served one request; the
    // service resets it when the POST reuses it.
    expect((await fetch(`${base}/thing`)).status).to.equal(200);
    const before = service.sockets.length;
    const postsBefore = service.posts.received;
    const res = await fetch(`${base}/thing`, { method: 'POST' });
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal('5');
    expect(service.sockets.length).to.equal(before);
    expect(service.posts.received - postsBefore).to.equal(1);
  });
});

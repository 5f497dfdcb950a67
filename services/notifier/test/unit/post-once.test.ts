import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Agent } from 'undici';
import { postOnce } from '../../src/delivery/post-once.js';

/** A plain HTTP server on loopback: `/hang` never answers, `/big` answers 64 KB, others 200 "ok". */
const startServer = async () => {
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/hang') return void hanging.push(res);
      if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(65_536));
      res.writeHead(429, { 'retry-after': '7' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
};

describe('one webhook POST through undici dispatch', () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  let agent: Agent;
  before(async () => {
    srv = await startServer();
  });
  beforeEach(() => {
    agent = new Agent({ connections: 1 });
  });
  afterEach(async () => {
    await agent.destroy();
  });
  after(async () => {
    await srv.close();
  });

  it('returns the status, the headers and the body', async () => {
    const answer = await postOnce(agent, { origin: srv.origin, path: '/ok' }, {}, '{}', 2_000, 2048);
    expect(answer.status).to.equal(429);
    expect(answer.headers['retry-after']).to.equal('7');
    expect(answer.body?.toString()).to.equal('ok');
  });

  it('reads no more of the body than the limit', async () => {
    const answer = await postOnce(agent, { origin: srv.origin, path: '/big' }, {}, '{}', 2_000, 2048);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.have.length(2048);
  });

  it('gives up when the window passes, also while waiting for a connection', async () => {
    const target = { origin: srv.origin, path: '/hang' };
    const started = performance.now();
    // One connection: the second request waits behind the first and never gets onto the wire.
    const results = await Promise.allSettled([
      postOnce(agent, target, {}, '{}', 300, 2048),
      postOnce(agent, target, {}, '{}', 300, 2048),
    ]);
    const elapsed = performance.now() - started;
    for (const r of results) {
      expect(r.status).to.equal('rejected');
      expect((r as PromiseRejectedResult).reason).to.have.property('name', 'TimeoutError');
    }
    expect(elapsed).to.be.below(1_000);
  });

  it('passes a connection failure on as it is', async () => {
    const closed = await startServer();
    await closed.close();
    const err = await postOnce(agent, { origin: closed.origin, path: '/' }, {}, '{}', 2_000, 2048).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(err?.code).to.equal('ECONNREFUSED');
  });
});

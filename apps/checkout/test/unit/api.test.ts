import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, gatewayClient } from '../../src/api.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

const json =
  (status: number, body: unknown): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const drop: Answer = (req) => req.socket.destroy();

/** A gateway on a local port that gives the queued answers in turn and records each request. */
const gateway = async (answers: Answer[]) => {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    (answers.shift() ?? json(500, { success: false, error: 'no answer queued' }))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
};

const session = { id: 's1', status: 'open' };
const ok = json(200, { success: true, data: session });
const unavailable = json(503, { success: false, error: 'Service unavailable' });

describe('checkout gateway client: reads outlive a restarting gateway, writes are never repeated', () => {
  let gw: Awaited<ReturnType<typeof gateway>> | undefined;
  afterEach(async () => gw?.close());

  it('asks a read again after a 502, 503 or 504, and after a dropped connection', async () => {
    gw = await gateway([json(502, {}), unavailable, drop, ok]);
    const got = await gatewayClient(gw.url).session('s1');
    expect(got).to.deep.equal(session);
    expect(gw.seen).to.deep.equal(Array(4).fill('GET /checkout/sessions/s1/public'));
  });

  it('gives up on a read after three more tries, with the gateway’s own answer', async () => {
    gw = await gateway([unavailable, unavailable, unavailable, unavailable, ok]);
    const err = await gatewayClient(gw.url)
      .session('s1')
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(503);
    expect(gw.seen).to.have.length(4);
  });

  it('never repeats a write: a 503 to a payment is the customer’s answer at once', async () => {
    gw = await gateway([unavailable, ok]);
    const err = await gatewayClient(gw.url)
      .createPayment({} as never)
      .catch((e: unknown) => e);
    expect((err as ApiError).status).to.equal(503);
    expect(gw.seen).to.deep.equal(['POST /payments/create-public']);
  });

  it('does not ask again what the gateway refused: a 404 is final', async () => {
    gw = await gateway([json(404, { success: false, error: 'Checkout session not found' }), ok]);
    const err = await gatewayClient(gw.url)
      .session('s1')
      .catch((e: unknown) => e);
    expect((err as ApiError).status).to.equal(404);
    expect((err as ApiError).message).to.equal('Checkout session not found');
    expect(gw.seen).to.have.length(1);
  });
});

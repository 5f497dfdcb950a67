import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { AmqpBus, INTERNAL_TOKEN_HEADER, buildEvent, signInternalToken } from '@stablepay/platform';
import {
  createTestDatabase,
  quietLogger,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import { randomUUID } from 'node:crypto';
import { paymentData } from '../support/fixtures.js';
import { INTERNAL_SECRET, harnessEnv, startHarness, type Harness } from '../support/harness.js';
import { Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';

const CHILD = fileURLToPath(new URL('../support/notifier-process.ts', import.meta.url));

/** Starts the notifier in a child process and resolves with its URL once it is ready. */
const startChild = (env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`notifier process exited early (${code})`)));
  });

describe('a notifier killed in the middle of a delivery loses nothing', function () {
  this.timeout(45_000);
  let testDb: TestDatabase;
  let rx: Receiver;
  let child: ChildProcess | undefined;
  let successor: Harness | undefined;
  let publisher: AmqpBus;

  before(async () => {
    rx = await Receiver.start();
    testDb = await createTestDatabase();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await successor?.close();
    await publisher?.close();
    await rx?.close();
    await testDb?.drop();
  });

  it('lets the lease run out, and a new instance delivers the event again (same event id)', async () => {
    const amqpUrl = await testAmqpUrl();
    const prefix = testQueuePrefix();
    const env = await harnessEnv({
      DATABASE_URL: testDb.url,
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: prefix,
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE: '0',
    });
    const started = await startChild(env);
    child = started.child;
    const merchantId = randomUUID();
    const created = await fetch(`${started.url}/merchant-webhooks/api/create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: signInternalToken(INTERNAL_SECRET, { caller: 'api_key', merchantId }),
      },
      body: JSON.stringify({ url: rx.url('/held'), events: ['payment.completed'] }),
    });
    expect(created.status).to.equal(201);
    const endpointId = ((await created.json()) as { data: { id: string } }).data.id;

    // The receiver holds the first request open: the notifier is killed while it waits for the answer.
    rx.on('/held', (_req, n) => (n === 1 ? 'hang' : { status: 200, body: 'got it' }));
    publisher = new AmqpBus({ url: amqpUrl, prefix, logger: quietLogger('publisher') });
    await publisher.connect();
    const event = buildEvent({
      type: 'payment.completed',
      producer: 'test',
      merchantId,
      data: paymentData(merchantId) as never,
    });
    await publisher.publish({
      id: event.id,
      type: event.type,
      body: event as unknown as Record<string, unknown>,
    });
    await rx.waitForRequests('/held', 1);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;

    successor = await startHarness({ env, share: { testDb, prefix } });
    const [, second] = await rx.waitForRequests('/held', 2, 15_000);
    expect(second!.at - killedAt).to.be.at.least(1_000); // not before the lease ran out
    expect(rx.byEvent(event.id)).to.have.length(2);
    await waitFor(async () => (await successor!.deliveryStatus(event.id, endpointId)) === 'succeeded');
    const attempts = await successor.db('webhook_attempts').where({ endpoint_id: endpointId });
    expect(attempts).to.have.length(1);
    expect(attempts[0]).to.include({
      attempt: 1,
      status: 'succeeded',
      response_status: 200,
      response_body_excerpt: 'got it',
    });
  });
});

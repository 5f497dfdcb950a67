/**
 * Once per mocha run: a fresh RabbitMQ vhost for every suite of this run (deleted afterwards, with
 * all its queues), when the broker is local and `rabbitmqctl` works. Otherwise suites fall back to
 * unique queue prefixes on the configured vhost. Under `npm test` the runner has made the vhost
 * already (TEST_AMQP_VHOST_GIVEN), ahead of the run, and deletes it after.
 */
import { createTestVhost } from '@stablepay/platform/testing';

let drop: (() => Promise<void>) | undefined;

export const mochaGlobalSetup = async () => {
  // The suite's runner (scripts/test.mjs) gives each group a vhost of its own, and deletes it.
  if (process.env.TEST_AMQP_VHOST_GIVEN) return;
  const base = process.env.TEST_AMQP_URL ?? process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const vhost = await createTestVhost(base);
  if (vhost) {
    process.env.TEST_AMQP_URL = vhost.url;
    drop = vhost.drop;
  }
};

export const mochaGlobalTeardown = async () => {
  await drop?.();
};

/**
 * Once per mocha run: a fresh RabbitMQ vhost for every suite of this run (deleted afterwards, with
 * all its queues), when the broker is local and `rabbitmqctl` works. Otherwise suites fall back to
 * unique queue prefixes on the configured vhost.
 */
import { createTestVhost } from '@stablepay/platform/testing';

let drop: (() => Promise<void>) | undefined;

export const mochaGlobalSetup = async () => {
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

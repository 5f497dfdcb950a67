import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomSuffix } from './backends.js';

const run = promisify(execFile);
export const TEST_VHOST_PREFIX = 'sp-test-';

const ctl = async (...args: string[]) => {
  await run('rabbitmqctl', args, { timeout: 60_000 });
};

/**
 * A RabbitMQ virtual host for one test run, so runs never share or leave behind queues: deleting
 * the vhost deletes every queue and exchange in it. Needs `rabbitmqctl` on this machine (a local
 * broker); returns undefined when it is not usable.
 */
export const createTestVhost = async (
  baseUrl: string,
): Promise<{ url: string; vhost: string; drop(): Promise<void> } | undefined> => {
  const url = new URL(baseUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) return undefined;
  const vhost = `${TEST_VHOST_PREFIX}${randomSuffix()}`;
  const user = decodeURIComponent(url.username || 'guest');
  try {
    await ctl('add_vhost', vhost);
    await ctl('set_permissions', '-p', vhost, user, '.*', '.*', '.*');
  } catch {
    return undefined;
  }
  url.pathname = `/${encodeURIComponent(vhost)}`;
  return {
    url: url.toString(),
    vhost,
    drop: async () => {
      await ctl('delete_vhost', vhost).catch(() => undefined);
    },
  };
};

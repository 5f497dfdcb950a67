import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BalanceUnavailableError, ChainWatcherClient } from '../../src/index.js';
import { BalanceServer } from '../support/balance-server.js';

const SECRET = 'client-test-internal-secret-0123456789abcdef';

describe('chain-watcher balance client', () => {
  let server: BalanceServer;
  let client: ChainWatcherClient;

  before(async () => {
    server = await new BalanceServer(SECRET).start();
    client = new ChainWatcherClient({ baseUrl: server.url, internalTokenSecret: SECRET, timeoutMs: 2000 });
  });
  after(async () => server.close());

  it('reads balances with a service token; a token the wallet does not list holds nothing', async () => {
    const merchantId = randomUUID();
    server.setBalance(merchantId, { USDC: '12.5' }, 'ARB');
    const wallet = await client.walletBalances(merchantId);
    expect(wallet?.blockchain).to.equal('ARB');
    expect(wallet?.amountOf('USDC')).to.equal('12.500000');
    expect(wallet?.amountOf('EURC')).to.equal('0.000000');
    expect(server.requestsFor(merchantId)).to.deep.equal([{ merchantId, caller: 'service' }]);
  });

  it('answers null for a merchant without a wallet', async () => {
    expect(await client.walletBalances(randomUUID())).to.equal(null);
  });

  it('reports the chain-watcher failing, refusing the token or being unreachable', async () => {
    server.failing = true;
    try {
      await expectUnavailable(client.walletBalances(randomUUID()), /503/);
    } finally {
      server.failing = false;
    }
    const wrongSecret = new ChainWatcherClient({
      baseUrl: server.url,
      internalTokenSecret: 'another-secret-that-is-long-enough-000000',
      timeoutMs: 2000,
    });
    await expectUnavailable(wrongSecret.walletBalances(randomUUID()), /401/);
    const closed = new ChainWatcherClient({
      baseUrl: 'http://127.0.0.1:1',
      internalTokenSecret: SECRET,
      timeoutMs: 2000,
    });
    await expectUnavailable(closed.walletBalances(randomUUID()), /unreachable/);
  });

  it('refuses an answer of the wrong shape', async () => {
    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { balances: 'lots' } }));
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
      const c = new ChainWatcherClient({ baseUrl: url, internalTokenSecret: SECRET, timeoutMs: 2000 });
      await expectUnavailable(c.walletBalances(randomUUID()), /unexpected balance shape/);
    } finally {
      odd.close();
      odd.closeAllConnections();
    }
  });
});

const expectUnavailable = async (promise: Promise<unknown>, message: RegExp) => {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(BalanceUnavailableError);
    expect((err as Error).message).to.match(message);
    return;
  }
  expect.fail('expected BalanceUnavailableError');
};

import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import { FAUCET, freePort, startDevnet, type Devnet, type DevnetChain } from '../src/index.js';
import { providerFor, tokenAt, usdc, walletFor } from './helpers.js';

const balanceOf = async (chain: DevnetChain, symbol: 'USDC' | 'EURC', address: string): Promise<bigint> => {
  const provider = providerFor(chain);
  try {
    return (await tokenAt(chain.tokens[symbol]!, provider).getFunction('balanceOf')(address)) as bigint;
  } finally {
    provider.destroy();
  }
};

const blockNumber = async (chain: DevnetChain): Promise<number> => {
  const provider = providerFor(chain);
  try {
    return await provider.getBlockNumber();
  } finally {
    provider.destroy();
  }
};

describe('devnet persistence and lifecycle', () => {
  let stateDir: string;
  const running: Devnet[] = [];
  const start = async (options: Parameters<typeof startDevnet>[0]): Promise<Devnet> => {
    const devnet = await startDevnet({ basePort: 0, ...options });
    running.push(devnet);
    return devnet;
  };

  before(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'devnet-state-'));
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((devnet) => devnet.stop()));
  });

  after(() => rmSync(stateDir, { recursive: true, force: true }));

  it('keeps contracts, balances and blocks across a stop and a start with the same stateDir', async () => {
    const first = await start({ stateDir, customers: 2 });
    const base = first.chain('BASE');
    const [alice, bob] = first.customers as [(typeof first.customers)[0], (typeof first.customers)[0]];
    const provider = providerFor(base);
    const token = tokenAt(base.tokens.USDC, provider).connect(walletFor(alice, provider));
    await (await token.getFunction('transfer')(bob.address, 12_345_678n)).wait();
    provider.destroy();
    const stranger = getAddress('0x' + '77'.repeat(20));
    await first.fund('ETH', stranger, { EURC: 5n });
    const blocks = await Promise.all(first.chains.map(blockNumber));

    const stopped = Date.now();
    await first.stop();
    const stopMs = Date.now() - stopped;
    for (const name of ['ETH', 'BASE', 'MATIC'])
      expect(existsSync(join(stateDir, `${name}.json`)), name).to.equal(true);
    expect(existsSync(join(stateDir, 'devnet-manifest.json'))).to.equal(true);
    // stop() waited for anvil to exit: nothing answers on the old port any more.
    await fetch(base.rpcUrl, { method: 'POST' }).then(
      () => expect.fail('anvil still answers after stop()'),
      () => undefined,
    );

    const restarted = Date.now();
    const second = await start({ stateDir, customers: 3 });
    const restartMs = Date.now() - restarted;
    expect(second.chains.map((c) => c.tokens)).to.deep.equal(first.chains.map((c) => c.tokens));
    const base2 = second.chain('BASE');
    // Balances as they were: no second faucet grant for customers already funded.
    expect(await balanceOf(base2, 'USDC', alice.address)).to.equal(usdc(10_000) - 12_345_678n);
    expect(await balanceOf(base2, 'USDC', bob.address)).to.equal(usdc(10_000) + 12_345_678n);
    expect(await balanceOf(second.chain('ETH'), 'EURC', stranger)).to.equal(5n);
    // The customer added by this start is funded once.
    const newcomer = second.customers[2]!;
    expect(await balanceOf(base2, 'USDC', newcomer.address)).to.equal(FAUCET.customerTokens);
    for (const [index, chain] of second.chains.entries()) {
      expect(await blockNumber(chain)).to.be.at.least(blocks[index] as number);
    }
    console.log(`      (stop ${stopMs} ms with state dump, restart ${restartMs} ms)`);
  });

  it('redeploys at the same addresses and refunds when a chain lost its state file', async () => {
    const before = await start({ stateDir, customers: 1 });
    const tokens = before.chain('MATIC').tokens;
    await before.stop();
    rmSync(join(stateDir, 'MATIC.json'));

    const after = await start({ stateDir, customers: 1 });
    expect(after.chain('MATIC').tokens).to.deep.equal(tokens);
    expect(await balanceOf(after.chain('MATIC'), 'USDC', after.customers[0]!.address)).to.equal(
      FAUCET.customerTokens,
    );
  });

  it('refuses a stateDir whose chains have other chain ids', async () => {
    let refused: unknown;
    await start({ stateDir, chains: [{ name: 'ETH', chainId: 31999, cctpDomain: 0 }] }).catch(
      (e: unknown) => (refused = e),
    );
    expect(String(refused)).to.match(/holds chain 31001, not 31999/);
  });

  it('reports a port that is in use instead of starting on it', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      let refused: unknown;
      await start({ basePort: port, chains: [{ name: 'ETH', chainId: 31001, cctpDomain: 0 }] }).catch(
        (e: unknown) => (refused = e),
      );
      expect(String(refused)).to.match(/did not start on port \d+: .*Address already in use/i);
    } finally {
      blocker.close();
    }
  });

  it('rejects chain lists the registry would reject', async () => {
    let refused: unknown;
    await start({
      chains: [
        { name: 'ETH', chainId: 31001, cctpDomain: 0 },
        { name: 'BASE', chainId: 31001, cctpDomain: 6 },
      ],
    }).catch((e: unknown) => (refused = e));
    expect(String(refused)).to.match(/Duplicate chainId 31001/);
  });
});

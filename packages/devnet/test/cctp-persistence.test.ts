import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Wallet } from 'ethers';
import { predictCctpContracts, startDevnet, type Devnet, type DevnetChain } from '../src/index.js';
import { balanceOf, burn, cctpOf, emittedMessage, randomNonce, receive } from './cctp-helpers.js';
import { providerFor, usdc, walletFor } from './helpers.js';

describe('devnet CCTP v2 across restarts', () => {
  let stateDir: string;
  const running: Devnet[] = [];
  const start = async (): Promise<Devnet> => {
    const devnet = await startDevnet({ basePort: 0, stateDir, customers: 2 });
    running.push(devnet);
    return devnet;
  };
  const deployerNonces = (devnet: Devnet): Promise<number[]> =>
    Promise.all(
      devnet.chains.map(async (chain) => {
        const provider = providerFor(chain);
        try {
          return await provider.getTransactionCount(devnet.deployer.address);
        } finally {
          provider.destroy();
        }
      }),
    );

  /** Burns on ETH, mints on the destination with the devnet's attesters; returns the nonce used. */
  const transfer = async (devnet: Devnet, destination: DevnetChain, amount: bigint): Promise<string> => {
    const eth = devnet.chain('ETH');
    const ethProvider = providerFor(eth);
    const destinationProvider = providerFor(destination);
    try {
      const alice: Wallet = walletFor(devnet.customers[0]!, ethProvider);
      const recipient = devnet.customers[1]!.address;
      const burned = await burn(eth, alice, { amount, destination, recipient });
      const nonce = randomNonce();
      const message = devnet.cctp.fillAttestedFields(emittedMessage(burned), {
        nonce,
        finalityThresholdExecuted: 2000,
        burn: { feeExecuted: 0n, expirationBlock: 0n },
      });
      const before = await balanceOf(destination, destinationProvider, recipient);
      const relayer = walletFor(devnet.relayers[destination.name]!, destinationProvider);
      await receive(destination, relayer, message, devnet.cctp.attest(message));
      expect(await balanceOf(destination, destinationProvider, recipient)).to.equal(before + amount);
      return nonce;
    } finally {
      ethProvider.destroy();
      destinationProvider.destroy();
    }
  };

  before(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'devnet-cctp-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((devnet) => devnet.stop()));
  });
  after(() => rmSync(stateDir, { recursive: true, force: true }));

  it('finds the same contracts after a restart with state, sends nothing, and remembers used nonces', async () => {
    const first = await start();
    for (const chain of first.chains) {
      expect(chain.cctp).to.deep.equal(
        predictCctpContracts(chain.chainId, chain.cctpDomain, first.deployer.address),
      );
    }
    const nonce = await transfer(first, first.chain('BASE'), usdc(2));
    const cctp = first.chains.map((chain) => chain.cctp);
    const registry = first.registry();
    const nonces = await deployerNonces(first);
    await first.stop();
    const manifest = JSON.parse(readFileSync(join(stateDir, 'devnet-manifest.json'), 'utf8')) as {
      chains: Record<string, { cctp?: unknown }>;
    };
    expect(first.chains.map((chain) => manifest.chains[chain.name]?.cctp)).to.deep.equal(cctp);

    const second = await start();
    expect(second.chains.map((chain) => chain.cctp)).to.deep.equal(cctp);
    expect(second.registry().chains.map((chain) => chain.cctp)).to.deep.equal(
      registry.chains.map((c) => c.cctp),
    );
    // Everything was in place: not one deployment or configuration transaction on any chain.
    expect(await deployerNonces(second)).to.deep.equal(nonces);
    const base = second.chain('BASE');
    const provider = providerFor(base);
    try {
      const transmitter = cctpOf(base, provider).messageTransmitter;
      expect(await transmitter.getFunction('usedNonces')(nonce)).to.equal(1n);
    } finally {
      provider.destroy();
    }
    await transfer(second, base, usdc(1));
  });

  it('redeploys and relinks a chain that lost its state, at the same addresses', async () => {
    const before = await start();
    const addresses = before.chains.map((chain) => chain.cctp);
    await before.stop();
    rmSync(join(stateDir, 'MATIC.json'));

    const after = await start();
    expect(after.chains.map((chain) => chain.cctp)).to.deep.equal(addresses);
    // ETH still knows MATIC's messenger (same address), and MATIC's new contracts know ETH's.
    await transfer(after, after.chain('MATIC'), usdc(1));
  });
});

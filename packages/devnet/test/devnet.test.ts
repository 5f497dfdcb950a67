import { expect } from 'chai';
import {
  chainById,
  chainByName,
  mainnetRegistry,
  parseChainRegistry,
  testnetRegistry,
  tokenAddress,
} from '@stablepay/contracts';
import { getAddress, type JsonRpcProvider } from 'ethers';
import {
  DEVNET_MNEMONIC,
  FAUCET,
  devnetAccount,
  startDevnet,
  type Devnet,
  type DevnetChain,
} from '../src/index.js';
import { expectRevert, providerFor, tokenAt, usdc, walletFor } from './helpers.js';

describe('devnet', () => {
  let devnet: Devnet;
  let startMs: number;
  const providers = new Map<string, JsonRpcProvider>();
  const provider = (chain: DevnetChain): JsonRpcProvider => {
    let found = providers.get(chain.name);
    if (!found) providers.set(chain.name, (found = providerFor(chain)));
    return found;
  };
  const tokenBalance = async (
    chain: DevnetChain,
    symbol: 'USDC' | 'EURC',
    address: string,
  ): Promise<bigint> =>
    (await tokenAt(chain.tokens[symbol]!, provider(chain)).getFunction('balanceOf')(address)) as bigint;

  before(async () => {
    const started = Date.now();
    devnet = await startDevnet({ basePort: 0 });
    startMs = Date.now() - started;
  });

  after(async () => {
    for (const each of providers.values()) each.destroy();
    await devnet?.stop();
  });

  it('runs ETH, BASE and MATIC on loopback with their own chain ids and the real CCTP domains', async () => {
    expect(devnet.chains.map((c) => [c.name, c.chainId, c.cctpDomain])).to.deep.equal([
      ['ETH', 31001, 0],
      ['BASE', 31002, 6],
      ['MATIC', 31003, 7],
    ]);
    for (const chain of devnet.chains) {
      expect(chain.rpcUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(await provider(chain).send('eth_chainId', []))).to.equal(chain.chainId);
      // No devnet chain id may be mistaken for a public network's.
      expect(chainById(mainnetRegistry, chain.chainId)).to.equal(undefined);
      expect(chainById(testnetRegistry, chain.chainId)).to.equal(undefined);
    }
    expect(new Set(devnet.chains.map((c) => c.rpcUrl)).size).to.equal(3);
    console.log(`      (devnet of ${devnet.chains.length} chains started in ${startMs} ms)`);
  });

  it('has USDC on every chain and EURC on ETH and BASE only, at addresses distinct per chain', async () => {
    for (const chain of devnet.chains) {
      expect(await provider(chain).getCode(chain.tokens.USDC)).to.not.equal('0x');
      expect(await tokenAt(chain.tokens.USDC, provider(chain)).getFunction('symbol')()).to.equal('USDC');
    }
    expect(devnet.chain('ETH').tokens.EURC).to.be.a('string');
    expect(devnet.chain('BASE').tokens.EURC).to.be.a('string');
    expect(devnet.chain('MATIC').tokens).to.not.have.property('EURC');
    const eurc = devnet.chain('BASE');
    expect(await tokenAt(eurc.tokens.EURC!, provider(eurc)).getFunction('symbol')()).to.equal('EURC');
    const addresses = devnet.chains.flatMap((c) => Object.values(c.tokens));
    expect(new Set(addresses).size).to.equal(addresses.length);
  });

  it('derives its accounts from the public test mnemonic and funds customers and relayers', async () => {
    expect(DEVNET_MNEMONIC).to.equal('test test test test test test test test test test test junk');
    expect(devnet.deployer.address).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(devnet.customers).to.have.length(5);
    expect(devnet.customers[0]).to.deep.equal(devnetAccount(1));
    for (const chain of devnet.chains) {
      for (const customer of devnet.customers) {
        expect(await provider(chain).getBalance(customer.address)).to.equal(FAUCET.customerNative);
        expect(await tokenBalance(chain, 'USDC', customer.address)).to.equal(usdc(10_000));
        if (chain.tokens.EURC)
          expect(await tokenBalance(chain, 'EURC', customer.address)).to.equal(usdc(10_000));
      }
      const relayer = devnet.relayers[chain.name]!;
      expect(await provider(chain).getBalance(relayer.address)).to.equal(FAUCET.relayerNative);
      expect(await tokenBalance(chain, 'USDC', relayer.address)).to.equal(0n);
    }
    const relayers = Object.values(devnet.relayers).map((r) => r!.address);
    expect(new Set(relayers).size).to.equal(3);
  });

  it('describes itself as a devnet chain registry that lookups and parsing accept', () => {
    const registry = devnet.registry();
    expect(registry.network).to.equal('devnet');
    expect(parseChainRegistry(JSON.stringify(registry))).to.deep.equal(registry);
    expect(chainByName(registry, 'BASE')?.rpcUrls).to.deep.equal([devnet.chain('BASE').rpcUrl]);
    expect(chainById(registry, 31003)?.name).to.equal('MATIC');
    expect(tokenAddress(registry, 'ETH', 'EURC')).to.equal(devnet.chain('ETH').tokens.EURC);
    expect(tokenAddress(registry, 'MATIC', 'EURC')).to.equal(undefined);
    expect(registry.chains.every((c) => c.confirmations === 1)).to.equal(true);
  });

  it('funds any address with native coin and tokens', async () => {
    const stranger = getAddress('0x' + '5a'.repeat(20));
    await devnet.fund('BASE', stranger, { native: 10n ** 18n, USDC: 1_500_000n, EURC: 7n });
    const base = devnet.chain('BASE');
    expect(await provider(base).getBalance(stranger)).to.equal(10n ** 18n);
    expect(await tokenBalance(base, 'USDC', stranger)).to.equal(1_500_000n);
    expect(await tokenBalance(base, 'EURC', stranger)).to.equal(7n);
    await Promise.all([
      devnet.fund('BASE', stranger, { USDC: 1n }),
      devnet.fund('BASE', stranger, { USDC: 2n }),
    ]);
    expect(await tokenBalance(base, 'USDC', stranger)).to.equal(1_500_003n);
    let refused: unknown;
    await devnet.fund('MATIC', stranger, { EURC: 1n }).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/No EURC on devnet chain MATIC/);
  });

  it('mines blocks on demand', async () => {
    const matic = devnet.chain('MATIC');
    const before = await provider(matic).getBlockNumber();
    expect(await devnet.mine('MATIC', 5)).to.equal(before + 5);
    expect(await provider(matic).getBlockNumber()).to.equal(before + 5);
  });

  it('reverts a chain to a snapshot', async () => {
    const eth = devnet.chain('ETH');
    const [alice, bob] = devnet.customers as [(typeof devnet.customers)[0], (typeof devnet.customers)[0]];
    const aliceBefore = await tokenBalance(eth, 'USDC', alice.address);
    const blockBefore = await provider(eth).getBlockNumber();
    const snapshot = await devnet.snapshot('ETH');

    const token = tokenAt(eth.tokens.USDC, provider(eth)).connect(walletFor(alice, provider(eth)));
    await (await token.getFunction('transfer')(bob.address, usdc(100))).wait();
    expect(await tokenBalance(eth, 'USDC', alice.address)).to.equal(aliceBefore - usdc(100));

    await devnet.revert('ETH', snapshot);
    expect(await tokenBalance(eth, 'USDC', alice.address)).to.equal(aliceBefore);
    expect(await provider(eth).getBlockNumber()).to.equal(blockBefore);
    await expectRevert(devnet.revert('ETH', snapshot), /Unknown devnet snapshot/);
    // The devnet's own transactions still go through after the revert (nonces come from the node).
    await devnet.fund('ETH', alice.address, { USDC: 1n });
    expect(await tokenBalance(eth, 'USDC', alice.address)).to.equal(aliceBefore + 1n);
  });
});

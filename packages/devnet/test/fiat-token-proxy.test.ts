import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Contract,
  ContractFactory,
  MaxUint256,
  ZeroAddress,
  getAddress,
  type JsonRpcProvider,
  type TransactionReceipt,
  type Wallet,
} from 'ethers';
import { loadArtifact } from '../src/artifacts.js';
import { DEVNET_TOKENS, startDevnet, type Devnet, type DevnetChain } from '../src/index.js';
import {
  predictImplementationAddress,
  predictTokenAddress,
  proxyAdminAccount,
  tokenInitializeData,
  tokenRoles,
} from '../src/tokens.js';
import { expectAbove, expectRevert, providerFor, tokenAt, usdc, walletFor } from './helpers.js';

const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const ADMIN_SLOT = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';
/** Init code of a contract whose every call returns the word 42: proof of which code answers. */
const ANSWERS_42 = '0x600a600c600039600a6000f3602a60005260206000f3';
const BASE_ONLY = [{ name: 'BASE' as const, chainId: 31002, cctpDomain: 6 }];

const slotAddress = async (provider: JsonRpcProvider, at: string, slot: string): Promise<string> =>
  getAddress(`0x${(await provider.getStorage(at, slot)).slice(-40)}`);

const eventNames = (contract: Contract, receipt: TransactionReceipt | null): string[] =>
  (receipt?.logs ?? []).map((log) => contract.interface.parseLog(log)?.name ?? '?');

describe('devnet FiatToken behind FiatTokenProxy: admin, upgrades, deterministic addresses', () => {
  let devnet: Devnet;
  let base: DevnetChain;
  let provider: JsonRpcProvider;
  let alice: Wallet;
  let bob: Wallet;
  let deployer: Wallet;
  let proxyAdmin: Wallet;
  let usdcAddress: string;
  let snapshot: string;

  /** The token at `address` as its proxy admin sees it. */
  const proxyAs = (wallet: Wallet, address = usdcAddress): Contract =>
    new Contract(address, loadArtifact('FiatTokenProxy').abi, wallet);
  const token = (runner: Wallet | JsonRpcProvider = provider): Contract => tokenAt(usdcAddress, runner);

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 2, chains: BASE_ONLY });
    base = devnet.chain('BASE');
    provider = providerFor(base);
    usdcAddress = base.tokens.USDC;
    [alice, bob] = devnet.customers.map((account) => walletFor(account, provider)) as [Wallet, Wallet];
    deployer = walletFor(devnet.deployer, provider);
    proxyAdmin = walletFor(proxyAdminAccount(), provider);
    await devnet.fund('BASE', proxyAdmin.address, { native: 10n ** 18n });
  });
  beforeEach(async () => {
    snapshot = await devnet.snapshot('BASE');
  });
  afterEach(async () => {
    await devnet.revert('BASE', snapshot);
  });
  after(async () => {
    provider?.destroy();
    await devnet?.stop();
  });

  it("sits at a predictable address behind a proxy whose EIP-1967 slots name the chain's one implementation and the admin", async () => {
    const implementation = predictImplementationAddress(base.chainId);
    expect(usdcAddress).to.equal(predictTokenAddress(DEVNET_TOKENS.USDC, deployer.address, base.chainId));
    expect(base.tokens.EURC).to.equal(
      predictTokenAddress(DEVNET_TOKENS.EURC, deployer.address, base.chainId),
    );
    for (const address of [usdcAddress, base.tokens.EURC!]) {
      expect(await slotAddress(provider, address, IMPLEMENTATION_SLOT)).to.equal(implementation);
      expect(await slotAddress(provider, address, ADMIN_SLOT)).to.equal(proxyAdmin.address);
    }
    expect(predictImplementationAddress(31001)).to.not.equal(implementation);
    expect(tokenRoles(deployer.address)).to.deep.equal({
      owner: deployer.address,
      masterMinter: deployer.address,
      pauser: deployer.address,
      blacklister: deployer.address,
      proxyAdmin: proxyAdmin.address,
    });
    expectAbove(await token().getFunction('minterAllowance')(deployer.address), MaxUint256 / 2n);
  });

  it('answers its admin alone; the admin cannot use the token, and others reach only the token', async () => {
    expect(await proxyAs(proxyAdmin).getFunction('admin').staticCall()).to.equal(proxyAdmin.address);
    expect(await proxyAs(proxyAdmin).getFunction('implementation').staticCall()).to.equal(
      predictImplementationAddress(base.chainId),
    );
    await expectRevert(
      token(proxyAdmin).getFunction('balanceOf')(alice.address),
      /Cannot call fallback function from the proxy admin/,
    );
    // For anyone else the proxy's functions do not exist: the call goes to FiatToken, which has none.
    for (const call of [
      proxyAs(alice).getFunction('admin').staticCall(),
      proxyAs(alice).getFunction('upgradeTo').staticCall(alice.address),
    ]) {
      const refused = await call.then(
        () => expect.fail('a proxy function answered someone who is not its admin'),
        (err: { code?: string; data?: string | null }) => err,
      );
      expect(refused).to.include({ code: 'CALL_EXCEPTION' });
      expect(refused.data ?? '0x').to.equal('0x'); // FiatToken has no such function and no fallback
    }
    expect(await slotAddress(provider, usdcAddress, IMPLEMENTATION_SLOT)).to.equal(
      predictImplementationAddress(base.chainId),
    );
  });

  it('upgrades in place: the new code answers at the same address, and the state is there after upgrading back', async () => {
    const original = predictImplementationAddress(base.chainId);
    await (await token(alice).getFunction('transfer')(bob.address, usdc(3))).wait();
    const [aliceBalance, bobBalance] = [
      await token().getFunction('balanceOf')(alice.address),
      await token().getFunction('balanceOf')(bob.address),
    ];
    const probe = await (await new ContractFactory([], ANSWERS_42, proxyAdmin).deploy()).waitForDeployment();

    const upgraded = await (
      await proxyAs(proxyAdmin).getFunction('upgradeTo')(await probe.getAddress())
    ).wait();
    expect(eventNames(proxyAs(proxyAdmin), upgraded)).to.deep.equal(['Upgraded']);
    expect(await token().getFunction('balanceOf')(alice.address)).to.equal(42n);
    expect(await token().getFunction('totalSupply')()).to.equal(42n);

    await (await proxyAs(proxyAdmin).getFunction('upgradeTo')(original)).wait();
    expect(await token().getFunction('balanceOf')(alice.address)).to.equal(aliceBalance);
    expect(await token().getFunction('balanceOf')(bob.address)).to.equal(bobBalance);
    expect(await token().getFunction('name')()).to.equal('USD Coin');
    await (await token(bob).getFunction('transfer')(alice.address, usdc(3))).wait();

    await expectRevert(
      proxyAs(proxyAdmin).getFunction('upgradeTo')(alice.address),
      /Cannot set a proxy implementation to a non-contract address/,
    );
    // An upgrade whose call fails is undone, with the implementation's own reason.
    const again = tokenInitializeData(DEVNET_TOKENS.USDC, tokenRoles(alice.address));
    await expectRevert(
      proxyAs(proxyAdmin).getFunction('upgradeToAndCall')(original, again),
      /FiatToken: contract is already initialized/,
    );
    expect(await slotAddress(provider, usdcAddress, IMPLEMENTATION_SLOT)).to.equal(original);
  });

  it('hands the admin role on with changeAdmin, never to the zero address', async () => {
    await expectRevert(
      proxyAs(proxyAdmin).getFunction('changeAdmin')(ZeroAddress),
      /Cannot change the admin of a proxy to the zero address/,
    );
    const changed = await (await proxyAs(proxyAdmin).getFunction('changeAdmin')(bob.address)).wait();
    const event = proxyAs(proxyAdmin).interface.parseLog(changed!.logs[0]!);
    expect(event?.name).to.equal('AdminChanged');
    expect([...event!.args]).to.deep.equal([proxyAdmin.address, bob.address]);
    expect(await slotAddress(provider, usdcAddress, ADMIN_SLOT)).to.equal(bob.address);
    // The former admin is an ordinary caller now; the new one is kept out of the token.
    expect(await token(proxyAdmin).getFunction('balanceOf')(alice.address)).to.equal(usdc(10_000));
    await expectRevert(
      token(bob).getFunction('transfer')(alice.address, 1n),
      /Cannot call fallback function from the proxy admin/,
    );
  });

  it('restarts from its state directory with the same proxies, their upgraded implementation, pause and blacklist', async function () {
    this.timeout(20_000);
    const stateDir = mkdtempSync(join(tmpdir(), 'devnet-token-state-'));
    const started: Devnet[] = [];
    try {
      const first = await startDevnet({ basePort: 0, customers: 1, chains: BASE_ONLY, stateDir });
      started.push(first);
      const chain = first.chain('BASE');
      const p1 = providerFor(chain);
      const admin1 = walletFor(proxyAdminAccount(), p1);
      const owner1 = walletFor(first.deployer, p1);
      await first.fund('BASE', admin1.address, { native: 10n ** 18n });
      const artifact = loadArtifact('FiatToken');
      const next = await (
        await new ContractFactory(artifact.abi, artifact.bytecode, admin1).deploy()
      ).waitForDeployment();
      await (
        await proxyAs(admin1, chain.tokens.USDC).getFunction('upgradeTo')(await next.getAddress())
      ).wait();
      await (await tokenAt(chain.tokens.EURC!, owner1).getFunction('pause')()).wait();
      await (await tokenAt(chain.tokens.USDC, owner1).getFunction('blacklist')(bob.address)).wait();
      p1.destroy();
      await first.stop();

      const second = await startDevnet({ basePort: 0, customers: 1, chains: BASE_ONLY, stateDir });
      started.push(second);
      const again = second.chain('BASE');
      expect(again.tokens).to.deep.equal(chain.tokens);
      expect(again.tokens.USDC).to.equal(usdcAddress); // the same on every machine
      const p2 = providerFor(again);
      try {
        expect(await slotAddress(p2, again.tokens.USDC, IMPLEMENTATION_SLOT)).to.equal(
          await next.getAddress(),
        );
        expect(await tokenAt(again.tokens.EURC!, p2).getFunction('paused')()).to.equal(true);
        expect(await tokenAt(again.tokens.USDC, p2).getFunction('isBlacklisted')(bob.address)).to.equal(true);
        expect(
          await tokenAt(again.tokens.USDC, p2).getFunction('balanceOf')(second.customers[0]!.address),
        ).to.equal(usdc(10_000));
      } finally {
        p2.destroy();
      }
    } finally {
      await Promise.all(started.map((d) => d.stop()));
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

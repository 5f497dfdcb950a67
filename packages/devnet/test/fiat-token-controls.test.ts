import { expect } from 'chai';
import { AbiCoder, ZeroAddress, type Contract, type JsonRpcProvider, type Wallet } from 'ethers';
import { startDevnet, type Devnet } from '../src/index.js';
import {
  BYTES,
  VRS,
  authorization,
  authorizationArgs,
  expectRevert,
  providerFor,
  signAuthorization,
  tokenAt,
  tokenDomain,
  usdc,
  walletFor,
} from './helpers.js';

/** The selector of Solidity's Error(string): what a `require` with a message reverts with. */
const ERROR_STRING = '0x08c379a0';

describe('devnet FiatToken: pause, blacklist and Circle revert strings', () => {
  let devnet: Devnet;
  let provider: JsonRpcProvider;
  let chainId: number;
  let token: Contract; // USDC on BASE, read-only
  let alice: Wallet;
  let bob: Wallet;
  let relayer: Wallet;
  /** The devnet deployer: owner, master minter, pauser and blacklister. */
  let admin: Wallet;
  let snapshot: string;

  before(async () => {
    devnet = await startDevnet({
      basePort: 0,
      customers: 2,
      chains: [{ name: 'BASE', chainId: 31002, cctpDomain: 6 }],
    });
    const base = devnet.chain('BASE');
    chainId = base.chainId;
    provider = providerFor(base);
    token = tokenAt(base.tokens.USDC, provider);
    [alice, bob] = devnet.customers.map((account) => walletFor(account, provider)) as [Wallet, Wallet];
    relayer = walletFor(devnet.relayers.BASE!, provider);
    admin = walletFor(devnet.deployer, provider);
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

  const as = (wallet: Wallet): Contract => token.connect(wallet) as Contract;
  const send = async (wallet: Wallet, fn: string, ...args: unknown[]) =>
    (await as(wallet).getFunction(fn)(...args)).wait();
  const balance = async (address: string): Promise<bigint> =>
    (await token.getFunction('balanceOf')(address)) as bigint;

  /** What the chain answers for a call from `from`: the raw revert data, decoded as Error(string). */
  const refusal = async (from: Wallet, fn: string, args: unknown[]): Promise<string> => {
    const data = token.interface.encodeFunctionData(fn, args);
    try {
      await provider.call({ from: from.address, to: await token.getAddress(), data });
    } catch (error) {
      const revert = (error as { data?: string }).data ?? '';
      expect(revert.slice(0, 10), `${fn}: a revert string, not a custom error`).to.equal(ERROR_STRING);
      return AbiCoder.defaultAbiCoder().decode(['string'], `0x${revert.slice(10)}`)[0] as string;
    }
    return expect.fail(`${fn} did not revert`);
  };

  /** A signed transferWithAuthorization from `payer`, ready for any relayer to submit. */
  const signedTransfer = async (payer: Wallet, to: string, value: bigint) => {
    const auth = authorization(payer.address, to, value);
    const domain = await tokenDomain(token, chainId);
    const { signature, v, r, s } = await signAuthorization(payer, domain, 'TransferWithAuthorization', auth);
    return { auth, signature, v, r, s };
  };

  it("refuses the common failures with FiatToken's revert strings, never an OpenZeppelin custom error", async () => {
    const aliceBalance = await balance(alice.address);
    expect(await refusal(alice, 'transfer', [bob.address, aliceBalance + 1n])).to.equal(
      'ERC20: transfer amount exceeds balance',
    );
    expect(await refusal(alice, 'transfer', [ZeroAddress, 1n])).to.equal(
      'ERC20: transfer to the zero address',
    );
    expect(await refusal(bob, 'transferFrom', [alice.address, bob.address, 1n])).to.equal(
      'ERC20: transfer amount exceeds allowance',
    );
    expect(await refusal(alice, 'approve', [ZeroAddress, 1n])).to.equal('ERC20: approve to the zero address');
    expect(await refusal(alice, 'decreaseAllowance', [bob.address, 1n])).to.equal(
      'ERC20: decreased allowance below zero',
    );
    expect(await refusal(alice, 'mint', [alice.address, 1n])).to.equal('FiatToken: caller is not a minter');
    expect(await refusal(alice, 'burn', [1n])).to.equal('FiatToken: caller is not a minter');
    expect(await refusal(admin, 'mint', [ZeroAddress, 1n])).to.equal('FiatToken: mint to the zero address');
    expect(await refusal(admin, 'burn', [1n])).to.equal('FiatToken: burn amount exceeds balance');
    await send(admin, 'configureMinter', bob.address, 5n);
    expect(await refusal(bob, 'mint', [bob.address, 6n])).to.equal(
      'FiatToken: mint amount exceeds minterAllowance',
    );

    // Through a relayer, as the platform sends: the authorization passes, the balance does not.
    const tooMuch = await signedTransfer(alice, bob.address, aliceBalance + 1n);
    expect(
      await refusal(relayer, `transferWithAuthorization${BYTES}`, [
        ...authorizationArgs(tooMuch.auth),
        tooMuch.signature,
      ]),
    ).to.equal('ERC20: transfer amount exceeds balance');
    const bySomeoneElse = await signedTransfer(bob, alice.address, 1n);
    expect(
      await refusal(relayer, `transferWithAuthorization${BYTES}`, [
        ...authorizationArgs({ ...bySomeoneElse.auth, from: alice.address }),
        bySomeoneElse.signature,
      ]),
    ).to.equal('FiatTokenV2: invalid signature');
    // ethers surfaces the same string as the reason of a failed send.
    await expectRevert(
      as(alice).getFunction('transfer')(bob.address, aliceBalance + 1n),
      /ERC20: transfer amount exceeds balance/,
    );
  });

  describe('pause', () => {
    it('is for the pauser alone, and announces Pause and Unpause', async () => {
      await expectRevert(as(alice).getFunction('pause')(), /Pausable: caller is not the pauser/);
      expect(await token.getFunction('pauser')()).to.equal(admin.address);
      const paused = await send(admin, 'pause');
      expect(paused.logs.map((l: never) => token.interface.parseLog(l)?.name)).to.deep.equal(['Pause']);
      expect(await token.getFunction('paused')()).to.equal(true);
      await expectRevert(as(alice).getFunction('unpause')(), /Pausable: caller is not the pauser/);
      const unpaused = await send(admin, 'unpause');
      expect(unpaused.logs.map((l: never) => token.interface.parseLog(l)?.name)).to.deep.equal(['Unpause']);
      expect(await token.getFunction('paused')()).to.equal(false);
    });

    it('stops transfers, approvals, authorizations, mints and burns until unpaused; balances stay readable', async () => {
      const signed = await signedTransfer(alice, bob.address, usdc(1));
      await send(admin, 'approve', alice.address, 10n);
      await send(admin, 'pause');

      const refused: Array<[Wallet, string, unknown[]]> = [
        [alice, 'transfer', [bob.address, 1n]],
        [alice, 'approve', [bob.address, 1n]],
        [alice, 'increaseAllowance', [bob.address, 1n]],
        [alice, 'transferFrom', [admin.address, alice.address, 1n]],
        [
          relayer,
          `transferWithAuthorization${VRS}`,
          [...authorizationArgs(signed.auth), signed.v, signed.r, signed.s],
        ],
        [relayer, `transferWithAuthorization${BYTES}`, [...authorizationArgs(signed.auth), signed.signature]],
        [bob, `receiveWithAuthorization${BYTES}`, [...authorizationArgs(signed.auth), signed.signature]],
        [
          relayer,
          'cancelAuthorization(address,bytes32,bytes)',
          [alice.address, signed.auth.nonce, signed.signature],
        ],
        [
          relayer,
          'permit(address,address,uint256,uint256,bytes)',
          [alice.address, bob.address, 1n, 1n, '0x'],
        ],
        [admin, 'mint', [alice.address, 1n]],
        [admin, 'burn', [1n]],
        [admin, 'configureMinter', [bob.address, 1n]],
      ];
      for (const [from, fn, args] of refused) {
        expect(await refusal(from, fn, args), fn).to.equal('Pausable: paused');
      }
      expect(await balance(alice.address)).to.equal(usdc(10_000));

      await send(admin, 'unpause');
      const bobBefore = await balance(bob.address);
      await send(
        relayer,
        `transferWithAuthorization${BYTES}`,
        ...authorizationArgs(signed.auth),
        signed.signature,
      );
      expect(await balance(bob.address)).to.equal(bobBefore + usdc(1));
    });
  });

  describe('blacklist', () => {
    it('is for the blacklister alone, and announces Blacklisted and UnBlacklisted', async () => {
      await expectRevert(
        as(alice).getFunction('blacklist')(bob.address),
        /Blacklistable: caller is not the blacklister/,
      );
      expect(await token.getFunction('blacklister')()).to.equal(admin.address);
      const listed = await send(admin, 'blacklist', bob.address);
      const event = token.interface.parseLog(listed.logs[0]);
      expect(event?.name).to.equal('Blacklisted');
      expect(event?.args[0]).to.equal(bob.address);
      expect(await token.getFunction('isBlacklisted')(bob.address)).to.equal(true);
      const unlisted = await send(admin, 'unBlacklist', bob.address);
      expect(token.interface.parseLog(unlisted.logs[0])?.name).to.equal('UnBlacklisted');
      expect(await token.getFunction('isBlacklisted')(bob.address)).to.equal(false);
    });

    it('keeps a blacklisted account out of every movement, as sender, recipient, spender or minter; its balance stays', async () => {
      const toBob = await signedTransfer(alice, bob.address, 1n);
      const fromBob = await signedTransfer(bob, alice.address, 1n);
      await send(alice, 'approve', bob.address, 10n);
      await send(admin, 'configureMinter', bob.address, 10n);
      const bobBalance = await balance(bob.address);
      await send(admin, 'blacklist', bob.address);

      const refused: Array<[Wallet, string, unknown[]]> = [
        [alice, 'transfer', [bob.address, 1n]],
        [bob, 'transfer', [alice.address, 1n]],
        [alice, 'approve', [bob.address, 1n]],
        [bob, 'approve', [alice.address, 1n]],
        [bob, 'transferFrom', [alice.address, bob.address, 1n]],
        [bob, 'transferFrom', [alice.address, relayer.address, 1n]],
        [relayer, `transferWithAuthorization${BYTES}`, [...authorizationArgs(toBob.auth), toBob.signature]],
        [
          relayer,
          `transferWithAuthorization${VRS}`,
          [...authorizationArgs(fromBob.auth), fromBob.v, fromBob.r, fromBob.s],
        ],
        [bob, `receiveWithAuthorization${BYTES}`, [...authorizationArgs(toBob.auth), toBob.signature]],
        [
          relayer,
          'permit(address,address,uint256,uint256,bytes)',
          [bob.address, alice.address, 1n, 1n, '0x'],
        ],
        [admin, 'mint', [bob.address, 1n]],
        [bob, 'mint', [alice.address, 1n]],
        [bob, 'burn', [1n]],
      ];
      for (const [from, fn, args] of refused) {
        expect(await refusal(from, fn, args), `${fn} from ${from.address}`).to.equal(
          'Blacklistable: account is blacklisted',
        );
      }
      expect(await balance(bob.address)).to.equal(bobBalance);
      // The token refuses to receive itself: FiatToken blacklists its own address at initialization.
      expect(await token.getFunction('isBlacklisted')(await token.getAddress())).to.equal(true);
      expect(await refusal(alice, 'transfer', [await token.getAddress(), 1n])).to.equal(
        'Blacklistable: account is blacklisted',
      );

      await send(admin, 'unBlacklist', bob.address);
      await send(
        relayer,
        `transferWithAuthorization${BYTES}`,
        ...authorizationArgs(toBob.auth),
        toBob.signature,
      );
      expect(await balance(bob.address)).to.equal(bobBalance + 1n);
    });
  });

  describe('roles', () => {
    it('lets only the owner hand roles on, never to the zero address', async () => {
      expect(await token.getFunction('owner')()).to.equal(admin.address);
      for (const fn of ['updatePauser', 'updateBlacklister', 'updateMasterMinter', 'transferOwnership']) {
        expect(await refusal(alice, fn, [bob.address]), fn).to.equal('Ownable: caller is not the owner');
      }
      expect(await refusal(admin, 'updatePauser', [ZeroAddress])).to.equal(
        'Pausable: new pauser is the zero address',
      );
      expect(await refusal(admin, 'transferOwnership', [ZeroAddress])).to.equal(
        'Ownable: new owner is the zero address',
      );

      await send(admin, 'updatePauser', bob.address);
      expect(await refusal(admin, 'pause', [])).to.equal('Pausable: caller is not the pauser');
      await send(bob, 'pause');
      expect(await token.getFunction('paused')()).to.equal(true);
      await send(admin, 'updateBlacklister', bob.address);
      await send(bob, 'blacklist', alice.address);
      expect(await token.getFunction('isBlacklisted')(alice.address)).to.equal(true);
    });

    it('cannot be initialized a second time, through the proxy or on the implementation', async () => {
      const args = [
        'Evil Coin',
        'EVIL',
        'USD',
        6,
        alice.address,
        alice.address,
        alice.address,
        alice.address,
      ];
      expect(await refusal(alice, 'initialize', args)).to.equal('FiatToken: contract is already initialized');
      expect(await token.getFunction('name')()).to.equal('USD Coin');
      const slot = await provider.getStorage(
        await token.getAddress(),
        '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
      );
      const implementation = tokenAt(`0x${slot.slice(-40)}`, provider);
      await expectRevert(
        implementation.connect(alice).getFunction('initialize')(...args),
        /FiatToken: contract is already initialized/,
      );
    });
  });
});

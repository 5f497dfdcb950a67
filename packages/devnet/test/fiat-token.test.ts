import { expect } from 'chai';
import { Signature, TypedDataEncoder, id, type Contract, type JsonRpcProvider, type Wallet } from 'ethers';
import { startDevnet, type Devnet } from '../src/index.js';
import {
  BYTES,
  VRS,
  authorization,
  authorizationArgs,
  expectBelow,
  expectRevert,
  providerFor,
  signAuthorization,
  tokenAt,
  tokenDomain,
  usdc,
  walletFor,
} from './helpers.js';

describe('devnet FiatToken (USDC/EURC with EIP-2612 and EIP-3009)', () => {
  let devnet: Devnet;
  let provider: JsonRpcProvider;
  let chainId: number;
  let token: Contract; // USDC on ETH, read-only
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  let relayer: Wallet;
  let owner: Wallet;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 3 });
    const eth = devnet.chain('ETH');
    chainId = eth.chainId;
    provider = providerFor(eth);
    token = tokenAt(eth.tokens.USDC, provider);
    [alice, bob, carol] = devnet.customers.map((account) => walletFor(account, provider)) as [
      Wallet,
      Wallet,
      Wallet,
    ];
    relayer = walletFor(devnet.relayers.ETH!, provider);
    owner = walletFor(devnet.deployer, provider);
  });

  after(async () => {
    provider?.destroy();
    await devnet?.stop();
  });

  const balance = async (wallet: Wallet): Promise<bigint> =>
    (await token.getFunction('balanceOf')(wallet.address)) as bigint;
  const as = (wallet: Wallet): Contract => token.connect(wallet) as Contract;

  it('looks like FiatToken v2.2: metadata, typehashes and the EIP-712 domain with version "2"', async () => {
    expect(await token.getFunction('name')()).to.equal('USD Coin');
    expect(await token.getFunction('symbol')()).to.equal('USDC');
    expect(await token.getFunction('decimals')()).to.equal(6n);
    expect(await token.getFunction('version')()).to.equal('2');
    expect(await token.getFunction('currency')()).to.equal('USD');
    expect(await token.getFunction('TRANSFER_WITH_AUTHORIZATION_TYPEHASH')()).to.equal(
      id(
        'TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)',
      ),
    );
    expect(await token.getFunction('RECEIVE_WITH_AUTHORIZATION_TYPEHASH')()).to.equal(
      id(
        'ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)',
      ),
    );
    expect(await token.getFunction('CANCEL_AUTHORIZATION_TYPEHASH')()).to.equal(
      id('CancelAuthorization(address authorizer,bytes32 nonce)'),
    );
    expect(await token.getFunction('PERMIT_TYPEHASH')()).to.equal(
      id('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)'),
    );
    expect(await token.getFunction('DOMAIN_SEPARATOR')()).to.equal(
      TypedDataEncoder.hashDomain(await tokenDomain(token, chainId)),
    );
    const eurc = tokenAt(devnet.chain('BASE').tokens.EURC!, providerFor(devnet.chain('BASE')));
    expect(await eurc.getFunction('name')()).to.equal('Euro Coin');
    expect(await eurc.getFunction('symbol')()).to.equal('EURC');
    expect(await eurc.getFunction('currency')()).to.equal('EUR');
    (eurc.runner as JsonRpcProvider).destroy();
  });

  it('moves exact base units on transfer and emits Transfer', async () => {
    const [aliceBefore, bobBefore] = [await balance(alice), await balance(bob)];
    const amount = 1_234_567n; // 1.234567 USDC
    const receipt = await (await as(alice).getFunction('transfer')(bob.address, amount)).wait();
    expect(await balance(alice)).to.equal(aliceBefore - amount);
    expect(await balance(bob)).to.equal(bobBefore + amount);
    const transfers = receipt.logs
      .map((log: never) => token.interface.parseLog(log))
      .filter((e: { name?: string } | null) => e?.name === 'Transfer');
    expect(transfers).to.have.length(1);
    expect(transfers[0].args.from).to.equal(alice.address);
    expect(transfers[0].args.to).to.equal(bob.address);
    expect(transfers[0].args.value).to.equal(amount);
    expect(receipt.logs[0].address).to.equal(await token.getAddress());
  });

  it('sets an allowance by permit (signature submitted by someone else) and refuses it twice', async () => {
    const value = usdc(25);
    const nonce = (await token.getFunction('nonces')(alice.address)) as bigint;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
    const types = {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    };
    const message = { owner: alice.address, spender: bob.address, value, nonce, deadline };
    const { v, r, s } = Signature.from(
      await alice.signTypedData(await tokenDomain(token, chainId), types, message),
    );
    const permit = as(relayer).getFunction('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)');
    await (await permit(alice.address, bob.address, value, deadline, v, r, s)).wait();
    expect(await token.getFunction('allowance')(alice.address, bob.address)).to.equal(value);
    expect(await token.getFunction('nonces')(alice.address)).to.equal(nonce + 1n);
    await expectRevert(
      permit(alice.address, bob.address, value, deadline, v, r, s),
      /EIP2612: invalid signature/,
    );

    const bobBefore = await balance(bob);
    await (await as(bob).getFunction('transferFrom')(alice.address, bob.address, value)).wait();
    expect(await balance(bob)).to.equal(bobBefore + value);
    expect(await token.getFunction('allowance')(alice.address, bob.address)).to.equal(0n);
  });

  it('refuses an expired permit', async () => {
    const permit = as(relayer).getFunction('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)');
    const { v, r, s } = Signature.from('0x' + '11'.repeat(32) + '22'.repeat(32) + '1b');
    await expectRevert(permit(alice.address, bob.address, 1n, 1n, v, r, s), /FiatTokenV2: permit is expired/);
  });

  describe('transferWithAuthorization', () => {
    it('moves funds when a relayer submits the signed authorization and pays the gas', async () => {
      const auth = authorization(alice.address, carol.address, usdc(3) + 1n);
      const { v, r, s } = await signAuthorization(
        alice,
        await tokenDomain(token, chainId),
        'TransferWithAuthorization',
        auth,
      );
      const [aliceBefore, carolBefore, aliceEth] = [
        await balance(alice),
        await balance(carol),
        await provider.getBalance(alice.address),
      ];
      const relayerEth = await provider.getBalance(relayer.address);

      const receipt = await (
        await as(relayer).getFunction(`transferWithAuthorization${VRS}`)(...authorizationArgs(auth), v, r, s)
      ).wait();
      expect(await balance(alice)).to.equal(aliceBefore - auth.value);
      expect(await balance(carol)).to.equal(carolBefore + auth.value);
      expect(await provider.getBalance(alice.address)).to.equal(aliceEth); // the authorizer paid no gas
      expectBelow(await provider.getBalance(relayer.address), relayerEth);
      expect(await token.getFunction('authorizationState')(alice.address, auth.nonce)).to.equal(true);
      const names = receipt.logs.map((log: never) => token.interface.parseLog(log)?.name);
      expect(names).to.deep.equal(['AuthorizationUsed', 'Transfer']);
    });

    it('refuses the same nonce a second time', async () => {
      const auth = authorization(alice.address, carol.address, 1n);
      const { v, r, s } = await signAuthorization(
        alice,
        await tokenDomain(token, chainId),
        'TransferWithAuthorization',
        auth,
      );
      const submit = as(relayer).getFunction(`transferWithAuthorization${VRS}`);
      await (await submit(...authorizationArgs(auth), v, r, s)).wait();
      await expectRevert(submit(...authorizationArgs(auth), v, r, s), /authorization is used or canceled/);
    });

    it('accepts the bytes-signature overload', async () => {
      const auth = authorization(bob.address, carol.address, 42n);
      const { signature } = await signAuthorization(
        bob,
        await tokenDomain(token, chainId),
        'TransferWithAuthorization',
        auth,
      );
      const carolBefore = await balance(carol);
      await (
        await as(relayer).getFunction(`transferWithAuthorization${BYTES}`)(
          ...authorizationArgs(auth),
          signature,
        )
      ).wait();
      expect(await balance(carol)).to.equal(carolBefore + 42n);
    });

    it('refuses an expired or not yet valid authorization', async () => {
      const now = BigInt(Math.floor(Date.now() / 1000));
      const domain = await tokenDomain(token, chainId);
      const submit = as(relayer).getFunction(`transferWithAuthorization${BYTES}`);
      const expired = authorization(alice.address, carol.address, 1n, { validBefore: now - 60n });
      const early = authorization(alice.address, carol.address, 1n, {
        validAfter: now + 3_600n,
        validBefore: now + 7_200n,
      });
      const expiredSig = (await signAuthorization(alice, domain, 'TransferWithAuthorization', expired))
        .signature;
      const earlySig = (await signAuthorization(alice, domain, 'TransferWithAuthorization', early)).signature;
      await expectRevert(submit(...authorizationArgs(expired), expiredSig), /authorization is expired/);
      await expectRevert(submit(...authorizationArgs(early), earlySig), /authorization is not yet valid/);
    });

    it('refuses a signature by anyone but the payer, and a changed amount', async () => {
      const domain = await tokenDomain(token, chainId);
      const auth = authorization(alice.address, carol.address, 5n);
      const byBob = (await signAuthorization(bob, domain, 'TransferWithAuthorization', auth)).signature;
      const submit = as(relayer).getFunction(`transferWithAuthorization${BYTES}`);
      await expectRevert(submit(...authorizationArgs(auth), byBob), /FiatTokenV2: invalid signature/);
      const byAlice = (await signAuthorization(alice, domain, 'TransferWithAuthorization', auth)).signature;
      await expectRevert(
        submit(...authorizationArgs({ ...auth, value: 6n }), byAlice),
        /FiatTokenV2: invalid signature/,
      );
    });

    it('is refused after cancelAuthorization', async () => {
      const domain = await tokenDomain(token, chainId);
      const auth = authorization(alice.address, carol.address, 7n);
      const { signature } = await signAuthorization(alice, domain, 'TransferWithAuthorization', auth);
      const cancel = await alice.signTypedData(
        domain,
        {
          CancelAuthorization: [
            { name: 'authorizer', type: 'address' },
            { name: 'nonce', type: 'bytes32' },
          ],
        },
        { authorizer: alice.address, nonce: auth.nonce },
      );
      const receipt = await (
        await as(relayer).getFunction('cancelAuthorization(address,bytes32,bytes)')(
          alice.address,
          auth.nonce,
          cancel,
        )
      ).wait();
      expect(token.interface.parseLog(receipt.logs[0])?.name).to.equal('AuthorizationCanceled');
      await expectRevert(
        as(relayer).getFunction(`transferWithAuthorization${BYTES}`)(...authorizationArgs(auth), signature),
        /authorization is used or canceled/,
      );
    });
  });

  describe('receiveWithAuthorization', () => {
    it('is refused unless the payee submits it, and moves funds when it does', async () => {
      const auth = authorization(alice.address, bob.address, usdc(2));
      const { v, r, s } = await signAuthorization(
        alice,
        await tokenDomain(token, chainId),
        'ReceiveWithAuthorization',
        auth,
      );
      await expectRevert(
        as(relayer).getFunction(`receiveWithAuthorization${VRS}`)(...authorizationArgs(auth), v, r, s),
        /caller must be the payee/,
      );
      const bobBefore = await balance(bob);
      await (
        await as(bob).getFunction(`receiveWithAuthorization${VRS}`)(...authorizationArgs(auth), v, r, s)
      ).wait();
      expect(await balance(bob)).to.equal(bobBefore + usdc(2));
    });

    it('does not accept a TransferWithAuthorization signature', async () => {
      const auth = authorization(alice.address, bob.address, 1n);
      const { signature } = await signAuthorization(
        alice,
        await tokenDomain(token, chainId),
        'TransferWithAuthorization',
        auth,
      );
      await expectRevert(
        as(bob).getFunction(`receiveWithAuthorization${BYTES}`)(...authorizationArgs(auth), signature),
        /FiatTokenV2: invalid signature/,
      );
    });
  });

  describe('minting', () => {
    it('lets minters mint within their allowance, appointed by the master minter (the deployer, also the faucet minter)', async () => {
      await expectRevert(
        as(alice).getFunction('mint')(alice.address, 1n),
        /FiatToken: caller is not a minter/,
      );
      await expectRevert(
        as(alice).getFunction('configureMinter')(alice.address, 100n),
        /FiatToken: caller is not the masterMinter/,
      );
      expect(await token.getFunction('masterMinter')()).to.equal(owner.address);
      expect(await token.getFunction('isMinter')(owner.address)).to.equal(true);

      const supply = (await token.getFunction('totalSupply')()) as bigint;
      await (await as(owner).getFunction('mint')(carol.address, usdc(1))).wait();
      expect(await token.getFunction('totalSupply')()).to.equal(supply + usdc(1));

      await (await as(owner).getFunction('configureMinter')(bob.address, 100n)).wait();
      expect(await token.getFunction('isMinter')(bob.address)).to.equal(true);
      const carolBefore = await balance(carol);
      const minted = await (await as(bob).getFunction('mint')(carol.address, 60n)).wait();
      expect(await balance(carol)).to.equal(carolBefore + 60n);
      expect(await token.getFunction('minterAllowance')(bob.address)).to.equal(40n);
      // FiatToken's order, which a CCTP mint's log order depends on: Mint, then Transfer from zero.
      const mintLogs = minted.logs.map((log: never) => token.interface.parseLog(log));
      expect(mintLogs.map((e: { name: string }) => e.name)).to.deep.equal(['Mint', 'Transfer']);
      expect(mintLogs[1].args.from).to.equal('0x0000000000000000000000000000000000000000');
      await expectRevert(
        as(bob).getFunction('mint')(carol.address, 41n),
        /FiatToken: mint amount exceeds minterAllowance/,
      );

      const bobBefore = await balance(bob);
      const burned = await (await as(bob).getFunction('burn')(10n)).wait();
      expect(await balance(bob)).to.equal(bobBefore - 10n);
      expect(burned.logs.map((log: never) => token.interface.parseLog(log)?.name)).to.deep.equal([
        'Burn',
        'Transfer',
      ]);
      await expectRevert(as(bob).getFunction('burn')(bobBefore), /FiatToken: burn amount exceeds balance/);
      await expectRevert(as(alice).getFunction('burn')(1n), /FiatToken: caller is not a minter/);

      await (await as(owner).getFunction('removeMinter')(bob.address)).wait();
      await expectRevert(as(bob).getFunction('mint')(carol.address, 1n), /FiatToken: caller is not a minter/);
    });
  });
});

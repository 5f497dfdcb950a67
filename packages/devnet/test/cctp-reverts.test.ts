import { expect } from 'chai';
import {
  MaxUint256,
  SigningKey,
  Wallet,
  ZeroHash,
  concat,
  dataSlice,
  getBytes,
  hexlify,
  keccak256,
  toBeHex,
  type Contract,
  type JsonRpcProvider,
} from 'ethers';
import {
  addressToBytes32,
  devnetAccount,
  encodeBurnMessageV2,
  encodeMessageV2,
  signAttestation,
  startDevnet,
  type BurnMessageV2,
  type Devnet,
  type DevnetAccount,
  type DevnetChain,
  type MessageV2,
} from '../src/index.js';
import { cctpOf, randomNonce } from './cctp-helpers.js';
import { expectRevert, providerFor, tokenAt, usdc, walletFor } from './helpers.js';

/*
 * Every refusal Circle's contracts give, with Circle's string, on real chains. Messages for the receive
 * side are built and signed here as the attester would sign them, so that one field at a time can be
 * wrong; the baseline message of each test is accepted.
 */
describe('devnet CCTP v2: refusals in order, with Circle revert strings', () => {
  let devnet: Devnet;
  let eth: DevnetChain;
  let base: DevnetChain;
  let ethProvider: JsonRpcProvider;
  let baseProvider: JsonRpcProvider;
  let alice: Wallet; // customer on ETH
  let admin: Wallet; // the deployer on ETH: owner of every CCTP role
  let baseAdmin: Wallet;
  let relayer: Wallet; // submits on BASE
  let snapshots: Array<[string, string]>;
  let attesters: DevnetAccount[];

  before(async () => {
    devnet = await startDevnet({
      basePort: 0,
      customers: 2,
      chains: [
        { name: 'ETH', chainId: 31001, cctpDomain: 0 },
        { name: 'BASE', chainId: 31002, cctpDomain: 6 },
      ],
    });
    [eth, base] = [devnet.chain('ETH'), devnet.chain('BASE')];
    ethProvider = providerFor(eth);
    baseProvider = providerFor(base);
    alice = walletFor(devnet.customers[0]!, ethProvider);
    admin = walletFor(devnet.deployer, ethProvider);
    baseAdmin = walletFor(devnet.deployer, baseProvider);
    relayer = walletFor(devnet.relayers.BASE!, baseProvider);
    attesters = devnet.cctp.attesters;
    await (
      await tokenAt(eth.tokens.USDC, alice).getFunction('approve')(eth.cctp.tokenMessenger, MaxUint256)
    ).wait();
  });
  beforeEach(async () => {
    snapshots = [
      ['ETH', await devnet.snapshot('ETH')],
      ['BASE', await devnet.snapshot('BASE')],
    ];
  });
  afterEach(async () => {
    for (const [name, id] of snapshots) await devnet.revert(name as 'ETH' | 'BASE', id);
  });
  after(async () => {
    ethProvider?.destroy();
    baseProvider?.destroy();
    await devnet?.stop();
  });

  const on = (contract: Contract, wallet: Wallet): Contract => contract.connect(wallet) as Contract;
  const send = async (contract: Contract, wallet: Wallet, fn: string, ...args: unknown[]) =>
    (await on(contract, wallet).getFunction(fn)(...args)).wait();

  describe('depositForBurn', () => {
    const bob = (): string => addressToBytes32(devnet.customers[1]!.address);
    const messenger = (): Contract => cctpOf(eth, ethProvider).tokenMessenger;
    const deposit = (wallet: Wallet, overrides: Partial<Record<string, unknown>> = {}) => {
      const a = {
        amount: usdc(10),
        domain: 6,
        recipient: bob(),
        token: eth.tokens.USDC,
        caller: ZeroHash,
        maxFee: 0n,
        finality: 2000,
        ...overrides,
      };
      return on(messenger(), wallet).getFunction('depositForBurn')(
        a.amount,
        a.domain,
        a.recipient,
        a.token,
        a.caller,
        a.maxFee,
        a.finality,
      );
    };

    it('checks the denylist first, then amount, recipient and maxFee', async () => {
      await send(messenger(), admin, 'denylist', alice.address);
      expect(await messenger().getFunction('isDenylisted')(alice.address)).to.equal(true);
      await expectRevert(deposit(alice, { amount: 0n }), /Denylistable: account is on denylist/);
      await send(messenger(), admin, 'unDenylist', alice.address);

      await expectRevert(deposit(alice, { amount: 0n, recipient: ZeroHash }), /Amount must be nonzero/);
      await expectRevert(deposit(alice, { recipient: ZeroHash }), /Mint recipient must be nonzero/);
      await expectRevert(deposit(alice, { maxFee: usdc(10) }), /Max fee must be less than amount/);
      const hookless = on(messenger(), alice).getFunction('depositForBurnWithHook');
      await expectRevert(
        hookless(usdc(10), 6, bob(), eth.tokens.USDC, ZeroHash, 0n, 2000, '0x'),
        /Hook data is empty/,
      );
    });

    it('checks the denylist on the origin too: a denylisted account cannot burn through a contract', async () => {
      /*
       * A contract that forwards its calldata to the messenger and bubbles the revert, as a smart wallet
       * would: CALLDATACOPY; CALL(gas, messenger, 0, 0, size, 0, 0); RETURNDATACOPY; revert or return
       * the return data. The creation code copies the 56-byte runtime from offset 11 and returns it.
       */
      const runtime = concat([
        '0x36600060003760006000366000600073',
        eth.cctp.tokenMessenger,
        '0x5af13d600060003e6033573d6000fd5b3d6000f3',
      ]);
      const creation = concat(['0x603880600b6000396000f3', runtime]);
      const deployed = await (await alice.sendTransaction({ data: creation })).wait();
      const forwarder = deployed!.contractAddress!;
      expect(await ethProvider.getCode(forwarder)).to.equal(runtime.toLowerCase());
      const calldata = messenger().interface.encodeFunctionData('depositForBurn', [
        usdc(1),
        6,
        bob(),
        eth.tokens.USDC,
        ZeroHash,
        0n,
        2000,
      ]);
      const viaForwarder = (wallet: Wallet) => wallet.sendTransaction({ to: forwarder, data: calldata });

      await send(messenger(), admin, 'denylist', alice.address);
      await expectRevert(viaForwarder(alice), /Denylistable: account is on denylist/);
      await send(messenger(), admin, 'unDenylist', alice.address);
      // Not denylisted, the forwarder gets as far as the token: it holds no allowance.
      await expectRevert(viaForwarder(alice), /ERC20: transfer amount exceeds balance|exceeds allowance/);
      await send(messenger(), admin, 'denylist', forwarder);
      await expectRevert(viaForwarder(alice), /Denylistable: account is on denylist/);
    });

    it('enforces the V2.1 minimum fee in 1/1000 basis points, at least one unit, on standard burns too', async () => {
      await expectRevert(
        send(messenger(), alice, 'setMinFee', 1_000n),
        /Caller is not the min fee controller/,
      );
      await send(messenger(), admin, 'setMinFee', 1_000n); // 1 bp
      expect(await messenger().getFunction('getMinFeeAmount')(usdc(10))).to.equal(1_000n);
      expect(await messenger().getFunction('getMinFeeAmount')(5n)).to.equal(1n);
      await expectRevert(deposit(alice, { maxFee: 999n }), /Insufficient max fee/);
      await expectRevert(deposit(alice, { amount: 5n, maxFee: 0n, finality: 2000 }), /Insufficient max fee/);
      // Max fee before minimum fee: a maxFee equal to the amount is refused for that first.
      await expectRevert(deposit(alice, { amount: 5n, maxFee: 5n }), /Max fee must be less than amount/);
      const receipt = await (await deposit(alice, { maxFee: 1_000n })).wait();
      expect(receipt?.status).to.equal(1);
      await expectRevert(send(messenger(), admin, 'setMinFee', 10_000_000n), /Min fee too high/);
    });

    it('refuses a domain without a token messenger, a token without a burn limit, and a burn over the limit', async () => {
      await expectRevert(deposit(alice, { domain: 3 }), /No TokenMessenger for domain/);
      await expectRevert(deposit(alice, { domain: 0 }), /No TokenMessenger for domain/);

      // EURC is not a CCTP token: it reaches the minter (after the transfer), which has no limit for it.
      await (
        await tokenAt(eth.tokens.EURC!, alice).getFunction('approve')(eth.cctp.tokenMessenger, usdc(1))
      ).wait();
      await expectRevert(
        deposit(alice, { amount: usdc(1), token: eth.tokens.EURC }),
        /Burn token not supported/,
      );

      const limit = devnet.cctp.burnLimitPerMessage;
      await devnet.fund('ETH', alice.address, { USDC: limit });
      await expectRevert(deposit(alice, { amount: limit + 1n }), /Burn amount exceeds per tx limit/);
      // Without approval the token refuses first, with Circle's string.
      const stranger = walletFor(devnetAccount(2500), ethProvider);
      await devnet.fund('ETH', stranger.address, { native: 10n ** 18n, USDC: usdc(1) });
      await expectRevert(deposit(stranger, { amount: usdc(1) }), /ERC20: transfer amount exceeds allowance/);
    });

    it('refuses while the token minter or the message transmitter is paused', async () => {
      const { tokenMinter, messageTransmitter } = cctpOf(eth, ethProvider);
      await expectRevert(send(tokenMinter, alice, 'pause'), /Pausable: caller is not the pauser/);
      await send(tokenMinter, admin, 'pause');
      await expectRevert(deposit(alice), /Pausable: paused/);
      await send(tokenMinter, admin, 'unpause');
      await send(messageTransmitter, admin, 'pause');
      await expectRevert(deposit(alice), /Pausable: paused/);
      await send(messageTransmitter, admin, 'unpause');
      expect((await (await deposit(alice)).wait())?.status).to.equal(1);
    });

    it('refuses a message body over 8192 bytes', async () => {
      const withHook = (hookBytes: number) =>
        on(messenger(), alice).getFunction('depositForBurnWithHook')(
          usdc(1),
          6,
          bob(),
          eth.tokens.USDC,
          ZeroHash,
          0n,
          2000,
          hexlify(new Uint8Array(hookBytes).fill(7)),
        );
      await expectRevert(withHook(8192 - 228 + 1), /Message body exceeds max size/);
      expect((await (await withHook(8192 - 228)).wait())?.status).to.equal(1);
    });
  });

  describe('receiveMessage', () => {
    const transmitter = (): Contract => cctpOf(base, baseProvider).messageTransmitter;

    /** A burn of 5 USDC from ETH to a BASE customer as the attester would hand it over, fast. */
    const burnBody = (overrides: Partial<BurnMessageV2> = {}): BurnMessageV2 => ({
      version: 1,
      burnToken: addressToBytes32(eth.tokens.USDC),
      mintRecipient: addressToBytes32(devnet.customers[1]!.address),
      amount: usdc(5),
      messageSender: addressToBytes32(devnet.customers[0]!.address),
      maxFee: 5_000n,
      feeExecuted: 500n,
      expirationBlock: 0n,
      hookData: '0x',
      ...overrides,
    });
    const message = (header: Partial<MessageV2> = {}, body: Partial<BurnMessageV2> = {}): string =>
      encodeMessageV2({
        version: 1,
        sourceDomain: 0,
        destinationDomain: 6,
        nonce: randomNonce(),
        sender: addressToBytes32(eth.cctp.tokenMessenger),
        recipient: addressToBytes32(base.cctp.tokenMessenger),
        destinationCaller: ZeroHash,
        minFinalityThreshold: 1000,
        finalityThresholdExecuted: 1000,
        messageBody: encodeBurnMessageV2(burnBody(body)),
        ...header,
      });
    const receive = (wallet: Wallet, bytes: string, attestation = devnet.cctp.attest(bytes)) =>
      on(transmitter(), wallet).getFunction('receiveMessage')(bytes, attestation);
    const signatureOf = (account: DevnetAccount, bytes: string): string =>
      new SigningKey(account.privateKey).sign(keccak256(bytes)).serialized;
    const sortedAttesters = (): DevnetAccount[] =>
      [...attesters].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));

    it('accepts the baseline message once; a used or empty nonce is refused', async () => {
      const bytes = message();
      expect((await (await receive(relayer, bytes)).wait())?.status).to.equal(1);
      await expectRevert(receive(relayer, bytes), /Nonce already used/);
      await expectRevert(receive(relayer, message({ nonce: ZeroHash })), /Nonce already used/);
    });

    it('takes exactly signatureThreshold signatures by enabled attesters in increasing address order', async () => {
      const bytes = message();
      const [low, high] = sortedAttesters() as [DevnetAccount, DevnetAccount];
      const reversed = concat([signatureOf(high, bytes), signatureOf(low, bytes)]);
      await expectRevert(receive(relayer, bytes, reversed), /signer is out of order or duplicate/);
      const duplicate = concat([signatureOf(low, bytes), signatureOf(low, bytes)]);
      await expectRevert(receive(relayer, bytes, duplicate), /signer is out of order or duplicate/);
      const stranger = devnetAccount(2600);
      await expectRevert(
        receive(relayer, bytes, signAttestation(bytes, [low, stranger])),
        /Signature verification failed: signer is not enabled attester/,
      );
      // An extra signature, even a valid one, and a missing one: the length is checked first.
      const extra = concat([devnet.cctp.attest(bytes), signatureOf(stranger, bytes)]);
      await expectRevert(receive(relayer, bytes, extra), /Invalid attestation length/);
      await expectRevert(receive(relayer, bytes, signatureOf(low, bytes)), /Invalid attestation length/);
      // Signed with the EIP-191 prefix, as a wallet's personal_sign would: the signers recovered are others.
      const prefixed = concat(
        sortedAttesters().map((a) => new Wallet(a.privateKey).signMessageSync(getBytes(keccak256(bytes)))),
      );
      await expectRevert(receive(relayer, bytes, prefixed), /Signature verification failed/);
    });

    it("refuses malleable and malformed signatures with the ECDSA library's strings", async () => {
      const bytes = message();
      const [low, high] = sortedAttesters() as [DevnetAccount, DevnetAccount];
      const good = signatureOf(low, bytes);
      const n = BigInt('0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141');
      const s = BigInt(dataSlice(good, 32, 64));
      const v = Number(dataSlice(good, 64, 65));
      const highS = concat([dataSlice(good, 0, 32), toBeHex(n - s, 32), toBeHex(v === 27 ? 28 : 27, 1)]);
      await expectRevert(
        receive(relayer, bytes, concat([highS, signatureOf(high, bytes)])),
        /ECDSA: invalid signature 's' value/,
      );
      const badV = concat([dataSlice(good, 0, 64), '0x1d']);
      await expectRevert(
        receive(relayer, bytes, concat([badV, signatureOf(high, bytes)])),
        /ECDSA: invalid signature 'v' value/,
      );
    });

    it('checks format, destination domain, destination caller, version and nonce after the signatures', async () => {
      await expectRevert(receive(relayer, dataSlice(message(), 0, 147)), /Invalid message: too short/);
      await expectRevert(receive(relayer, message({ destinationDomain: 7 })), /Invalid destination domain/);
      // A wrong domain is found before a wrong version or a used nonce.
      await expectRevert(
        receive(relayer, message({ destinationDomain: 0, version: 2, nonce: ZeroHash })),
        /Invalid destination domain/,
      );
      const merchant = walletFor(devnet.customers[1]!, baseProvider);
      const forMerchant = message({ destinationCaller: addressToBytes32(merchant.address) });
      await expectRevert(receive(relayer, forMerchant), /Invalid caller for message/);
      await expectRevert(receive(relayer, message({ version: 0 })), /Invalid message version/);
      expect((await (await receive(merchant, forMerchant)).wait())?.status).to.equal(1);
    });

    it("refuses what the token messenger does not accept, with the messenger's and minter's strings", async () => {
      await expectRevert(
        receive(relayer, message({ sender: addressToBytes32(devnet.customers[0]!.address) })),
        /Remote TokenMessenger unsupported/,
      );
      await expectRevert(
        receive(relayer, message({ sourceDomain: 7 })), // BASE knows no token messenger of domain 7 here
        /Remote TokenMessenger unsupported/,
      );
      await expectRevert(
        receive(relayer, message({ finalityThresholdExecuted: 499, minFinalityThreshold: 499 })),
        /Unsupported finality threshold/,
      );
      // finalityThresholdExecuted is never compared with minFinalityThreshold.
      expect(
        (
          await (
            await receive(relayer, message({ minFinalityThreshold: 2000, finalityThresholdExecuted: 500 }))
          ).wait()
        )?.status,
      ).to.equal(1);
      await expectRevert(receive(relayer, message({}, { version: 0 })), /Invalid message body version/);
      await expectRevert(
        receive(relayer, message({ messageBody: dataSlice(encodeBurnMessageV2(burnBody()), 0, 227) })),
        /Invalid message: too short/,
      );
      await expectRevert(receive(relayer, message({}, { feeExecuted: 5_001n })), /Fee exceeds max fee/);
      await expectRevert(
        receive(relayer, message({}, { amount: 5_000n, feeExecuted: 5_000n })),
        /Fee equals or exceeds amount/,
      );
      await expectRevert(
        receive(relayer, message({}, { burnToken: addressToBytes32(eth.tokens.EURC!) })),
        /Mint token not supported/,
      );
    });

    it('refuses a message whose expiration block is reached: it must be re-signed', async () => {
      const head = BigInt(await baseProvider.getBlockNumber());
      await expectRevert(
        receive(relayer, message({}, { expirationBlock: head })),
        /Message expired and must be re-signed/,
      );
      expect(
        (await (await receive(relayer, message({}, { expirationBlock: head + 5n }))).wait())?.status,
      ).to.equal(1);
    });

    it('refuses while the transmitter or the minter is paused, and only the pauser pauses', async () => {
      const { tokenMinter } = cctpOf(base, baseProvider);
      await expectRevert(send(transmitter(), relayer, 'pause'), /Pausable: caller is not the pauser/);
      await send(transmitter(), baseAdmin, 'pause');
      await expectRevert(receive(relayer, message()), /Pausable: paused/);
      await send(transmitter(), baseAdmin, 'unpause');
      await send(tokenMinter, baseAdmin, 'pause');
      await expectRevert(receive(relayer, message()), /Pausable: paused/);
      await send(tokenMinter, baseAdmin, 'unpause');
      expect((await (await receive(relayer, message())).wait())?.status).to.equal(1);
    });

    it('lets only the local transmitter call the handlers, and only the local messenger mint', async () => {
      const { tokenMessenger, tokenMinter } = cctpOf(base, baseProvider);
      await expectRevert(
        on(tokenMessenger, relayer).getFunction('handleReceiveFinalizedMessage')(
          0,
          addressToBytes32(eth.cctp.tokenMessenger),
          2000,
          encodeBurnMessageV2(burnBody()),
        ),
        /Invalid message transmitter/,
      );
      await expectRevert(
        on(tokenMinter, relayer).getFunction('mint(uint32,bytes32,address,uint256)')(
          0,
          addressToBytes32(eth.tokens.USDC),
          relayer.address,
          1n,
        ),
        /Caller not local TokenMessenger/,
      );
    });
  });
});

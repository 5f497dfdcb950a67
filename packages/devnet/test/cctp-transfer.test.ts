import { expect } from 'chai';
import {
  Interface,
  JsonRpcProvider,
  ZeroAddress,
  ZeroHash,
  concat,
  dataSlice,
  hexlify,
  solidityPacked,
  toUtf8Bytes,
  type Wallet,
} from 'ethers';
import { chainByName } from '@stablepay/contracts';
import {
  CCTP_BURN_LIMIT_PER_MESSAGE,
  CCTP_EVENT_TOPICS,
  CCTP_SELECTORS,
  addressToBytes32,
  decodeBurnMessageV2,
  decodeMessageV2,
  messageTransmitterV2Abi,
  recoverAttesters,
  startDevnet,
  tokenMessengerV2Abi,
  type Devnet,
  type DevnetChain,
} from '../src/index.js';
import {
  balanceOf,
  burn,
  cctpOf,
  emittedMessage,
  eventArgs,
  logTrail,
  randomNonce,
  receive,
} from './cctp-helpers.js';
import { providerFor, tokenAt, usdc, walletFor } from './helpers.js';

describe('devnet CCTP v2: burn, attest, mint', () => {
  let devnet: Devnet;
  let eth: DevnetChain;
  let base: DevnetChain;
  let matic: DevnetChain;
  const providers = new Map<string, JsonRpcProvider>();
  const provider = (chain: DevnetChain): JsonRpcProvider => {
    let found = providers.get(chain.name);
    if (!found) providers.set(chain.name, (found = providerFor(chain)));
    return found;
  };
  const customer = (n: number, chain: DevnetChain): Wallet =>
    walletFor(devnet.customers[n] as (typeof devnet.customers)[0], provider(chain));
  const messengerAbi = new Interface(tokenMessengerV2Abi());
  const transmitterAbi = new Interface(messageTransmitterV2Abi());

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 3 });
    [eth, base, matic] = [devnet.chain('ETH'), devnet.chain('BASE'), devnet.chain('MATIC')];
  });

  after(async () => {
    for (const each of providers.values()) each.destroy();
    await devnet?.stop();
  });

  it('deploys the three contracts on every chain with its real domain, linked to every other chain', async () => {
    for (const chain of devnet.chains) {
      const { messageTransmitter, tokenMessenger, tokenMinter } = cctpOf(chain, provider(chain));
      const call = (contract: typeof tokenMinter, fn: string, ...args: unknown[]) =>
        contract.getFunction(fn)(...args) as Promise<unknown>;
      expect(await call(messageTransmitter, 'localDomain')).to.equal(BigInt(chain.cctpDomain));
      expect(await call(messageTransmitter, 'version')).to.equal(1n);
      expect(await call(messageTransmitter, 'signatureThreshold')).to.equal(2n);
      expect(await call(messageTransmitter, 'getNumEnabledAttesters')).to.equal(2n);
      for (const attester of devnet.cctp.attesters)
        expect(await call(messageTransmitter, 'isEnabledAttester', attester.address)).to.equal(true);
      expect(await call(messageTransmitter, 'isEnabledAttester', devnet.deployer.address)).to.equal(false);
      expect(await call(messageTransmitter, 'maxMessageBodySize')).to.equal(8192n);
      expect(await call(messageTransmitter, 'usedNonces', ZeroHash)).to.equal(1n);

      expect(await call(tokenMessenger, 'messageBodyVersion')).to.equal(1n);
      expect(await call(tokenMessenger, 'localMessageTransmitter')).to.equal(chain.cctp.messageTransmitter);
      expect(await call(tokenMessenger, 'localMinter')).to.equal(tokenMinter.target);
      expect(await call(tokenMessenger, 'feeRecipient')).to.equal(devnet.cctp.feeRecipient);
      expect(await call(tokenMessenger, 'minFee')).to.equal(0n);
      expect(await call(tokenMessenger, 'MIN_FEE_MULTIPLIER')).to.equal(10_000_000n);
      expect(await call(tokenMinter, 'localTokenMessenger')).to.equal(chain.cctp.tokenMessenger);
      expect(await call(tokenMinter, 'burnLimitsPerMessage', chain.tokens.USDC)).to.equal(
        CCTP_BURN_LIMIT_PER_MESSAGE,
      );
      expect(
        await tokenAt(chain.tokens.USDC, provider(chain)).getFunction('isMinter')(tokenMinter.target),
      ).to.equal(true);
      for (const other of devnet.chains.filter((each) => each !== chain)) {
        expect(await call(tokenMessenger, 'remoteTokenMessengers', other.cctpDomain)).to.equal(
          addressToBytes32(other.cctp.tokenMessenger),
        );
        expect(
          await call(tokenMinter, 'getLocalToken', other.cctpDomain, addressToBytes32(other.tokens.USDC)),
        ).to.equal(chain.tokens.USDC);
        // EURC is not a CCTP token: nothing mints for it.
        if (other.tokens.EURC)
          expect(
            await call(tokenMinter, 'getLocalToken', other.cctpDomain, addressToBytes32(other.tokens.EURC)),
          ).to.equal(ZeroAddress);
      }
      expect(await call(tokenMessenger, 'remoteTokenMessengers', chain.cctpDomain)).to.equal(ZeroHash);
      expect(chainByName(devnet.registry(), chain.name)?.cctp).to.deep.equal({
        tokenMessenger: chain.cctp.tokenMessenger,
        messageTransmitter: chain.cctp.messageTransmitter,
      });
    }
    const addresses = devnet.chains.flatMap((chain) => Object.values(chain.cctp));
    expect(new Set(addresses).size).to.equal(9);
  });

  it("answers to Circle's selectors and emits events with Circle's signatures", () => {
    expect(messengerAbi.getFunction('depositForBurn')?.selector).to.equal(CCTP_SELECTORS.depositForBurn);
    expect(messengerAbi.getFunction('depositForBurnWithHook')?.selector).to.equal(
      CCTP_SELECTORS.depositForBurnWithHook,
    );
    expect(transmitterAbi.getFunction('receiveMessage')?.selector).to.equal(CCTP_SELECTORS.receiveMessage);
    expect(CCTP_SELECTORS).to.deep.equal({
      depositForBurn: '0x8e0250ee',
      depositForBurnWithHook: '0x779b432d',
      receiveMessage: '0x57ecfd28',
    });
    expect(transmitterAbi.getEvent('MessageSent')?.topicHash).to.equal(CCTP_EVENT_TOPICS.MessageSent);
    expect(transmitterAbi.getEvent('MessageReceived')?.topicHash).to.equal(CCTP_EVENT_TOPICS.MessageReceived);
    expect(messengerAbi.getEvent('DepositForBurn')?.topicHash).to.equal(CCTP_EVENT_TOPICS.DepositForBurn);
    expect(messengerAbi.getEvent('MintAndWithdraw')?.topicHash).to.equal(CCTP_EVENT_TOPICS.MintAndWithdraw);
  });

  it('burns a fast transfer on ETH for BASE, then mints it on BASE net of the fee the attester executed', async () => {
    const alice = customer(0, eth);
    const bob = devnet.customers[1]!.address;
    const amount = usdc(25);
    const maxFee = 20_000n;
    const supplyBefore = (await tokenAt(eth.tokens.USDC, provider(eth)).getFunction(
      'totalSupply',
    )()) as bigint;
    const aliceBefore = await balanceOf(eth, provider(eth), alice.address);

    const burned = await burn(eth, alice, {
      amount,
      destination: base,
      recipient: bob,
      maxFee,
      minFinalityThreshold: 1000,
    });
    expect(logTrail(burned, eth)).to.deep.equal([
      'Transfer@USDC',
      'Burn@USDC',
      'Transfer@USDC',
      'MessageSent@transmitter',
      'DepositForBurn@messenger',
    ]);
    expect(await balanceOf(eth, provider(eth), alice.address)).to.equal(aliceBefore - amount);
    expect(await tokenAt(eth.tokens.USDC, provider(eth)).getFunction('totalSupply')()).to.equal(
      supplyBefore - amount,
    );

    // The exact bytes, built here field by field rather than with the codec under test.
    const emitted = emittedMessage(burned);
    const expectedBody = solidityPacked(
      ['uint32', 'bytes32', 'bytes32', 'uint256', 'bytes32', 'uint256', 'uint256', 'uint256'],
      [
        1,
        addressToBytes32(eth.tokens.USDC),
        addressToBytes32(bob),
        amount,
        addressToBytes32(alice.address),
        maxFee,
        0,
        0,
      ],
    );
    const expectedMessage = solidityPacked(
      ['uint32', 'uint32', 'uint32', 'bytes32', 'bytes32', 'bytes32', 'bytes32', 'uint32', 'uint32', 'bytes'],
      [
        1,
        0,
        6,
        ZeroHash,
        addressToBytes32(eth.cctp.tokenMessenger),
        addressToBytes32(base.cctp.tokenMessenger),
        ZeroHash,
        1000,
        0,
        expectedBody,
      ],
    );
    expect(emitted).to.equal(expectedMessage);
    expect(dataSlice(emitted, 8, 12)).to.equal('0x00000006'); // destination domain @8
    expect(BigInt(dataSlice(emitted, 148 + 68, 148 + 100))).to.equal(amount); // amount @68 of the body
    expect(decodeBurnMessageV2(decodeMessageV2(emitted).messageBody).maxFee).to.equal(maxFee);

    const deposit = eventArgs(burned, messengerAbi, 'DepositForBurn');
    expect(deposit.toObject()).to.deep.equal({
      burnToken: eth.tokens.USDC,
      amount,
      depositor: alice.address,
      mintRecipient: addressToBytes32(bob),
      destinationDomain: 6n,
      destinationTokenMessenger: addressToBytes32(base.cctp.tokenMessenger),
      destinationCaller: ZeroHash,
      maxFee,
      minFinalityThreshold: 1000n,
      hookData: '0x',
    });
    const depositLog = burned.logs.find((log) => log.topics[0] === CCTP_EVENT_TOPICS.DepositForBurn)!;
    expect(depositLog.topics.slice(1)).to.deep.equal([
      addressToBytes32(eth.tokens.USDC),
      addressToBytes32(alice.address),
      `0x${(1000).toString(16).padStart(64, '0')}`,
    ]);

    // As Circle's attester: nonce, finality, fee and expiry filled in, two attesters sign.
    const nonce = randomNonce();
    const fee = 1_250n;
    const expirationBlock = BigInt(await provider(base).getBlockNumber()) + 100n;
    const message = devnet.cctp.fillAttestedFields(emitted, {
      nonce,
      finalityThresholdExecuted: 1000,
      burn: { feeExecuted: fee, expirationBlock },
    });
    const attestation = devnet.cctp.attest(message);
    expect(recoverAttesters(message, attestation)).to.deep.equal(
      devnet.cctp.attesters.map((a) => a.address).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
    );
    const relayer = walletFor(devnet.relayers.BASE!, provider(base));
    const bobBefore = await balanceOf(base, provider(base), bob);
    const feeBefore = await balanceOf(base, provider(base), devnet.cctp.feeRecipient);

    const minted = await receive(base, relayer, message, attestation);
    expect(logTrail(minted, base)).to.deep.equal([
      'Mint@USDC',
      'Transfer@USDC',
      'Mint@USDC',
      'Transfer@USDC',
      'MintAndWithdraw@messenger',
      'MessageReceived@transmitter',
    ]);
    expect(await balanceOf(base, provider(base), bob)).to.equal(bobBefore + amount - fee);
    expect(await balanceOf(base, provider(base), devnet.cctp.feeRecipient)).to.equal(feeBefore + fee);
    expect(eventArgs(minted, messengerAbi, 'MintAndWithdraw').toObject()).to.deep.equal({
      mintRecipient: bob,
      amount: amount - fee,
      mintToken: base.tokens.USDC,
      feeCollected: fee,
    });
    expect(eventArgs(minted, transmitterAbi, 'MessageReceived').toObject()).to.deep.equal({
      caller: relayer.address,
      sourceDomain: 0n,
      nonce,
      sender: addressToBytes32(eth.cctp.tokenMessenger),
      finalityThresholdExecuted: 1000n,
      messageBody: decodeMessageV2(message).messageBody,
    });
    const transmitter = cctpOf(base, provider(base)).messageTransmitter;
    expect(await transmitter.getFunction('usedNonces')(nonce)).to.equal(1n);
  });

  it('mints a standard transfer with hook data through the finalized handler, without a fee', async () => {
    const carol = customer(2, matic);
    const recipient = devnet.customers[0]!.address;
    const hookData = hexlify(concat([toUtf8Bytes('merchant-order:'), '0x0102030405']));
    const amount = usdc(3);
    const burned = await burn(matic, carol, { amount, destination: eth, recipient, hookData });
    const emitted = emittedMessage(burned);
    const sent = decodeMessageV2(emitted);
    expect([sent.sourceDomain, sent.destinationDomain, sent.minFinalityThreshold]).to.deep.equal([
      7, 0, 2000,
    ]);
    expect(decodeBurnMessageV2(sent.messageBody).hookData).to.equal(hookData);
    expect(eventArgs(burned, messengerAbi, 'DepositForBurn').hookData).to.equal(hookData);

    const message = devnet.cctp.fillAttestedFields(emitted, {
      nonce: randomNonce(),
      finalityThresholdExecuted: 2000,
      burn: { feeExecuted: 0n, expirationBlock: 0n },
    });
    const before = await balanceOf(eth, provider(eth), recipient);
    // Anyone may submit a message whose destinationCaller is empty: here the recipient's own wallet.
    const minted = await receive(eth, customer(0, eth), message, devnet.cctp.attest(message));
    expect(logTrail(minted, eth)).to.deep.equal([
      'Mint@USDC',
      'Transfer@USDC',
      'MintAndWithdraw@messenger',
      'MessageReceived@transmitter',
    ]);
    expect(await balanceOf(eth, provider(eth), recipient)).to.equal(before + amount);
    expect(eventArgs(minted, transmitterAbi, 'MessageReceived').finalityThresholdExecuted).to.equal(2000n);
  });
});

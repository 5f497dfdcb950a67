import type { PublicChain } from '@stablepay/contracts';
import {
  TRANSFER_TOPIC,
  addressWord,
  decodeUint,
  encodeAllowance,
  encodeApprove,
  encodeDepositForBurn,
  encodeReceiveMessage,
} from '../eth/abi.js';
import { blockNumber, getLogs, receipt, rpc, waitForReceipt } from '../eth/rpc.js';
import { switchChain } from '../eth/wallet.js';
import { burnFeeFor, FAST_FINALITY, waitForAttestation } from './circle-api.js';
import { PayError } from './errors.js';
import { proveOnce, recordAndSettle, requireBalance, requireMined, sendFrom, switchStep } from './steps.js';
import type { PayContext, PaymentOutcome, PayOption, PendingPayment } from './types.js';

/*
 * The bridge-kit flow of CCTP v2, with the contract calls Circle's Bridge Kit makes: approve the
 * source chain's TokenMessengerV2, depositForBurn with the merchant's wallet as mint recipient, wait
 * for the attestation, receiveMessage on the merchant's chain, then report the burn and the mint.
 * Loaded only when a customer pays from another chain, so the page and widget stay small.
 */

type CctpChain = PublicChain & { cctp: NonNullable<PublicChain['cctp']> };

/** One bridged payment: where it burns, where it mints, and what the merchant is owed. */
interface Bridge {
  ctx: PayContext;
  pending: PendingPayment;
  source: CctpChain;
  dest: CctpChain;
  usdc: string;
  attestationUrl: string;
  amount: bigint;
}

const bridgeFor = (ctx: PayContext, option: PayOption, pending: PendingPayment): Bridge => {
  const source = option.chain;
  const dest = ctx.target.merchantChain;
  const attestationUrl = ctx.chains.attestationUrl;
  if (!source.cctp || !dest.cctp || !attestationUrl) throw new PayError('failed', 'CCTP is not offered here');
  return {
    ctx,
    pending,
    source: source as CctpChain,
    dest: dest as CctpChain,
    usdc: source.tokens.USDC!,
    attestationUrl,
    amount: BigInt(pending.amount),
  };
};

/**
 * Reloaded while the wallet was sending the burn: the customer's USDC pulled by a call to
 * TokenMessengerV2 since the payment started (where it goes next is the messenger's business).
 */
const findInterruptedBurn = async ({ source, usdc, pending }: Bridge): Promise<string | undefined> => {
  const pulled = await getLogs(source.rpcUrls, {
    address: usdc,
    topics: [TRANSFER_TOPIC, `0x${addressWord(pending.account)}`, null],
    fromBlock: BigInt(pending.fromBlock),
  });
  const burnAmount = BigInt(pending.transferAmount!);
  for (const log of pulled.filter((l) => decodeUint(l.data) === burnAmount)) {
    const tx = await receipt(source.rpcUrls, log.transactionHash);
    if (tx?.status === '0x1' && tx.to?.toLowerCase() === source.cctp.tokenMessenger.toLowerCase())
      return log.transactionHash.toLowerCase();
  }
  return undefined;
};

/** The messenger allowed to pull the burn, unless an earlier approval already covers it. */
const approveIfShort = async ({ ctx, pending, source, usdc }: Bridge, burnAmount: bigint): Promise<void> => {
  const allowance = decodeUint(
    await rpc<string>(source.rpcUrls, 'eth_call', [
      { to: usdc, data: encodeAllowance(pending.account, source.cctp.tokenMessenger) },
      'latest',
    ]),
  );
  if (allowance >= burnAmount) return;
  const { chainId } = source;
  ctx.onStep({ kind: 'approve', state: 'active', chainId, units: pending.transferAmount });
  pending.approveTxHash = await sendFrom(
    ctx.provider!,
    pending.account,
    usdc,
    encodeApprove(source.cctp.tokenMessenger, burnAmount),
  );
  ctx.save(pending);
  await requireMined(source.rpcUrls, pending.approveTxHash, ctx.signal, 'approval');
  ctx.onStep({
    kind: 'approve',
    state: 'done',
    chainId,
    txHash: pending.approveTxHash,
    units: burnAmount.toString(),
  });
};

/** Balance, proof, approval, then depositForBurn, its hash saved the moment the wallet returns it. */
const burn = async (b: Bridge): Promise<string> => {
  const { ctx, pending, source, dest, amount } = b;
  // The merchant is owed the amount after Circle's fee: the burn carries the fee on top, and
  // whatever of it Circle does not take reaches the merchant too.
  const maxFee = await burnFeeFor(b.attestationUrl, source.cctpDomain, dest.cctpDomain, amount);
  const burnAmount = amount + maxFee;
  await requireBalance(source, 'USDC', pending.account, burnAmount);
  await proveOnce(ctx, pending, {
    recipient: ctx.target.walletAddress,
    token: 'USDC',
    amount,
    sourceChainId: source.chainId,
  });
  await approveIfShort(b, burnAmount);
  ctx.onStep({ kind: 'burn', state: 'active', chainId: source.chainId, units: burnAmount.toString() });
  pending.fromBlock = (await blockNumber(source.rpcUrls)).toString();
  pending.transferAmount = burnAmount.toString();
  ctx.save(pending);
  pending.txHash = await sendFrom(
    ctx.provider!,
    pending.account,
    source.cctp.tokenMessenger,
    encodeDepositForBurn({
      amount: burnAmount,
      destinationDomain: dest.cctpDomain,
      mintRecipient: ctx.target.walletAddress,
      burnToken: b.usdc,
      maxFee,
      minFinalityThreshold: FAST_FINALITY,
    }),
  );
  ctx.save(pending);
  return pending.txHash;
};

/**
 * The attested message delivered on the merchant's chain. A reverted mint usually means someone
 * (Circle's forwarder) delivered it first: the service then finds that mint by the message's nonce,
 * so the payment is reported without ours (undefined).
 */
const mint = async ({ ctx, pending, source, dest, attestationUrl }: Bridge, burnHash: string) => {
  if (!pending.mintTxHash) {
    if (!pending.attestation) {
      ctx.onStep({ kind: 'attest', state: 'active' });
      pending.attestation = await waitForAttestation(attestationUrl, source.cctpDomain, burnHash, ctx.signal);
      ctx.save(pending);
    }
    ctx.onStep({ kind: 'attest', state: 'done' });
    ctx.onStep({ kind: 'mint', state: 'active', chainId: dest.chainId });
    await switchChain(ctx.provider!, dest);
    pending.mintTxHash = await sendFrom(
      ctx.provider!,
      pending.account,
      dest.cctp.messageTransmitter,
      encodeReceiveMessage(pending.attestation.message, pending.attestation.attestation),
    );
    ctx.save(pending);
  }
  const minted = await waitForReceipt(dest.rpcUrls, pending.mintTxHash, { signal: ctx.signal });
  const mintTxHash = minted.status === '0x1' ? pending.mintTxHash : undefined;
  ctx.onStep({ kind: 'mint', state: 'done', chainId: dest.chainId, txHash: mintTxHash });
  return mintTxHash;
};

export const payCrossChain = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  const b = bridgeFor(ctx, option, pending);
  const { source, dest } = b;
  if (!pending.txHash) await switchStep(ctx, source);
  if (!pending.txHash && pending.transferAmount) pending.txHash = await findInterruptedBurn(b);
  const burnHash = pending.txHash ?? (await burn(b));
  await requireMined(source.rpcUrls, burnHash, ctx.signal, 'burn');
  ctx.onStep({
    kind: 'burn',
    state: 'done',
    chainId: source.chainId,
    txHash: burnHash,
    units: pending.transferAmount,
  });

  const mintTxHash = await mint(b, burnHash);
  return recordAndSettle(ctx, pending, {
    txHash: burnHash,
    chainId: source.chainId,
    isCrossChain: true,
    destinationChainId: dest.chainId,
    bridgeKit: { burnTxHash: burnHash, ...(mintTxHash ? { mintTxHash } : {}) },
  });
};

import {
  TRANSFER_TOPIC,
  addressWord,
  decodeUint,
  encodeAllowance,
  encodeApprove,
  encodeDepositForBurn,
  encodeReceiveMessage,
} from '../eth/abi.js';
import { blockNumber, getLogs, receipt, rpc, tokenBalance, waitForReceipt } from '../eth/rpc.js';
import { sendTransaction, switchChain, type Eip1193Provider } from '../eth/wallet.js';
import { toDecimal } from '../money.js';
import { PayError } from './errors.js';
import { signCheckoutPayment } from './proof.js';
import { recordPayment } from './record.js';
import { waitForSettlement } from './settle.js';
import type { PayContext, PaymentOutcome, PayOption, PendingPayment } from './types.js';

/*
 * The bridge-kit flow of CCTP v2, with the contract calls Circle's Bridge Kit makes: approve the
 * source chain's TokenMessengerV2, depositForBurn with the merchant's wallet as mint recipient, wait
 * for the attestation, receiveMessage on the merchant's chain, then report the burn and the mint.
 * Loaded only when a customer pays from another chain, so the page and widget stay small.
 */

/** Fast transfer (Circle attests at 1000 confirmations-equivalent "confirmed" rather than finalized). */
const FAST_FINALITY = 1000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/**
 * The most Circle may take for a fast transfer on this route: its published rate, rounded up, plus
 * one unit. Without an answer, 1%: the burn is then attested as a standard transfer if that is short.
 */
const maxFeeFor = async (
  attestationUrl: string,
  src: number,
  dst: number,
  amount: bigint,
): Promise<bigint> => {
  try {
    const res = await fetch(`${attestationUrl.replace(/\/$/, '')}/v2/burn/USDC/fees/${src}/${dst}`);
    const fees = (await res.json()) as Array<{ finalityThreshold: number; minimumFee: number }>;
    const fast = fees.find((f) => f.finalityThreshold <= FAST_FINALITY);
    if (fast) {
      const milliBps = BigInt(Math.round(fast.minimumFee * 1000));
      return (amount * milliBps + 9_999_999n) / 10_000_000n + 1n;
    }
  } catch {
    // fall through to the default
  }
  return amount / 100n;
};

const send = async (provider: Eip1193Provider, pending: PendingPayment, to: string, data: `0x${string}`) =>
  (await sendTransaction(provider, { from: pending.account, to, data })).toLowerCase();

export const payCrossChain = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  const source = option.chain;
  const dest = ctx.target.merchantChain;
  const provider = ctx.provider!;
  const attestationUrl = ctx.chains.attestationUrl;
  if (!source.cctp || !dest.cctp || !attestationUrl) throw new PayError('failed', 'CCTP is not offered here');
  const usdc = source.tokens.USDC!;
  const amount = BigInt(pending.amount);

  if (!pending.txHash) {
    ctx.onStep({ kind: 'switch', state: 'active', chainId: source.chainId });
    await switchChain(provider, { chainId: source.chainId, name: source.name, rpcUrls: source.rpcUrls });
    ctx.onStep({ kind: 'switch', state: 'done', chainId: source.chainId });
  }
  if (!pending.txHash && pending.transferAmount) {
    // Reloaded while the wallet was sending the burn: find the customer's USDC pulled by a call to
    // TokenMessengerV2 since the payment started (where it goes next is the messenger's business).
    const pulled = await getLogs(source.rpcUrls, {
      address: usdc,
      topics: [TRANSFER_TOPIC, `0x${addressWord(pending.account)}`, null],
      fromBlock: BigInt(pending.fromBlock),
    });
    const burnAmount = BigInt(pending.transferAmount);
    for (const log of pulled.filter((l) => decodeUint(l.data) === burnAmount)) {
      const tx = await receipt(source.rpcUrls, log.transactionHash);
      if (tx?.status === '0x1' && tx.to?.toLowerCase() === source.cctp.tokenMessenger.toLowerCase()) {
        pending.txHash = log.transactionHash.toLowerCase();
        break;
      }
    }
  }

  if (!pending.txHash) {
    // The merchant is owed the amount after Circle's fee: the burn carries the fee on top, and
    // whatever of it Circle does not take reaches the merchant too.
    const maxFee = await maxFeeFor(
      attestationUrl,
      source.cctpDomain,
      dest.cctpDomain,
      amount + (await maxFeeFor(attestationUrl, source.cctpDomain, dest.cctpDomain, amount)),
    );
    const burnAmount = amount + maxFee;
    const balance = await tokenBalance(source.rpcUrls, usdc, pending.account);
    if (balance < burnAmount) {
      throw new PayError('balance', 'Not enough balance', {
        balance: toDecimal(balance),
        amount: toDecimal(burnAmount),
        token: 'USDC',
        chain: source.name,
      });
    }
    if (ctx.target.sessionId && !pending.proof) {
      ctx.onStep({ kind: 'proof', state: 'active' });
      pending.proof = await signCheckoutPayment(provider, {
        sessionId: ctx.target.sessionId,
        merchantId: ctx.target.merchantId,
        payer: pending.account,
        recipient: ctx.target.walletAddress,
        token: 'USDC',
        amount,
        sourceChainId: source.chainId,
      });
      ctx.save(pending);
      ctx.onStep({ kind: 'proof', state: 'done' });
    }
    const allowance = decodeUint(
      await rpc<string>(source.rpcUrls, 'eth_call', [
        { to: usdc, data: encodeAllowance(pending.account, source.cctp.tokenMessenger) },
        'latest',
      ]),
    );
    if (allowance < burnAmount) {
      ctx.onStep({
        kind: 'approve',
        state: 'active',
        chainId: source.chainId,
        units: pending.transferAmount,
      });
      pending.approveTxHash = await send(
        provider,
        pending,
        usdc,
        encodeApprove(source.cctp.tokenMessenger, burnAmount),
      );
      ctx.save(pending);
      const approved = await waitForReceipt(source.rpcUrls, pending.approveTxHash, { signal: ctx.signal });
      if (approved.status !== '0x1') throw new PayError('reverted', 'The approval reverted');
      ctx.onStep({
        kind: 'approve',
        state: 'done',
        chainId: source.chainId,
        txHash: pending.approveTxHash,
        units: burnAmount.toString(),
      });
    }
    ctx.onStep({ kind: 'burn', state: 'active', chainId: source.chainId, units: burnAmount.toString() });
    pending.fromBlock = (await blockNumber(source.rpcUrls)).toString();
    pending.transferAmount = burnAmount.toString();
    ctx.save(pending);
    pending.txHash = await send(
      provider,
      pending,
      source.cctp.tokenMessenger,
      encodeDepositForBurn({
        amount: burnAmount,
        destinationDomain: dest.cctpDomain,
        mintRecipient: ctx.target.walletAddress,
        burnToken: usdc,
        maxFee,
        minFinalityThreshold: FAST_FINALITY,
      }),
    );
    ctx.save(pending);
  }
  const burnHash = pending.txHash;
  const burned = await waitForReceipt(source.rpcUrls, burnHash, { signal: ctx.signal });
  if (burned.status !== '0x1') throw new PayError('reverted', 'The burn reverted');
  ctx.onStep({
    kind: 'burn',
    state: 'done',
    chainId: source.chainId,
    txHash: burnHash,
    units: pending.transferAmount,
  });

  if (!pending.mintTxHash) {
    if (!pending.attestation) {
      ctx.onStep({ kind: 'attest', state: 'active' });
      pending.attestation = await waitForAttestation(attestationUrl, source.cctpDomain, burnHash, ctx.signal);
      ctx.save(pending);
    }
    ctx.onStep({ kind: 'attest', state: 'done' });
    ctx.onStep({ kind: 'mint', state: 'active', chainId: dest.chainId });
    await switchChain(provider, { chainId: dest.chainId, name: dest.name, rpcUrls: dest.rpcUrls });
    pending.mintTxHash = await send(
      provider,
      pending,
      dest.cctp.messageTransmitter,
      encodeReceiveMessage(pending.attestation.message, pending.attestation.attestation),
    );
    ctx.save(pending);
  }
  const minted = await waitForReceipt(dest.rpcUrls, pending.mintTxHash, { signal: ctx.signal });
  // A reverted mint usually means someone (Circle's forwarder) delivered the message first: the
  // service then finds that mint by the message's nonce, so the payment is reported without ours.
  const mintTxHash = minted.status === '0x1' ? pending.mintTxHash : undefined;
  ctx.onStep({ kind: 'mint', state: 'done', chainId: dest.chainId, txHash: mintTxHash });

  await recordPayment(ctx, pending, {
    txHash: burnHash,
    chainId: source.chainId,
    isCrossChain: true,
    destinationChainId: dest.chainId,
    bridgeKit: { burnTxHash: burnHash, ...(mintTxHash ? { mintTxHash } : {}) },
  });
  ctx.onStep({ kind: 'settle', state: 'active' });
  const outcome = await waitForSettlement(ctx, pending.paymentId!, burnHash);
  ctx.onStep({ kind: 'settle', state: 'done' });
  return outcome;
};

/** Circle's GET /v2/messages/{sourceDomain}?transactionHash=, polled until the message is signed. */
const waitForAttestation = async (
  attestationUrl: string,
  sourceDomain: number,
  burnHash: string,
  signal: AbortSignal,
): Promise<{ message: string; attestation: string }> => {
  for (let delay = 1000; ; delay = Math.min(delay * 1.5, 10_000)) {
    signal.throwIfAborted();
    const res = await fetch(
      `${attestationUrl.replace(/\/$/, '')}/v2/messages/${sourceDomain}?transactionHash=${burnHash}`,
    ).catch(() => undefined);
    if (res?.ok) {
      const body = (await res.json()) as {
        messages?: Array<{ status?: string; message?: string; attestation?: string }>;
      };
      const m = body.messages?.[0];
      if (m?.status === 'complete' && m.message && m.attestation && m.attestation !== 'PENDING')
        return { message: m.message, attestation: m.attestation };
    }
    // 404 until the burn is indexed, 429 when asked too often: both mean wait.
    await sleep(res?.status === 429 ? 30_000 : delay, signal);
  }
};

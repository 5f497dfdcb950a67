import { TRANSFER_TOPIC, addressWord, decodeUint, encodeTransfer } from '../eth/abi.js';
import { blockNumber, getLogs } from '../eth/rpc.js';
import { toDecimal } from '../money.js';
import { proveOnce, recordAndSettle, requireBalance, requireMined, sendFrom, switchStep } from './steps.js';
import type { PayContext, PaymentOutcome, PayOption, PendingPayment } from './types.js';

/**
 * A transfer from `account` to the merchant of exactly `amount` since `fromBlock`: how a payment whose
 * transaction hash never reached the page (a reload while the wallet was sending) is found again.
 */
export const findTransfer = async (
  rpcUrls: readonly string[],
  token: string,
  from: string | undefined,
  to: string,
  amount: bigint,
  fromBlock: bigint,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ txHash: string; from: string } | undefined> => {
  const logs = await getLogs(rpcUrls, {
    address: token,
    topics: [TRANSFER_TOPIC, from ? `0x${addressWord(from)}` : null, `0x${addressWord(to)}`],
    fromBlock,
  });
  const match = logs.find((l) => decodeUint(l.data) === amount && !skip.has(l.transactionHash.toLowerCase()));
  return match && { txHash: match.transactionHash.toLowerCase(), from: `0x${match.topics[1]!.slice(26)}` };
};

/** Switches the wallet to the chain, and finds a transfer a reload interrupted before its hash was kept. */
const resumeOrSwitch = async (ctx: PayContext, option: PayOption, pending: PendingPayment): Promise<void> => {
  const { chain } = option;
  await switchStep(ctx, chain);
  // Reloaded while the wallet was sending: the transfer may be on-chain without the page knowing.
  const found = await findTransfer(
    chain.rpcUrls,
    chain.tokens[option.token]!,
    pending.account,
    ctx.target.walletAddress,
    BigInt(pending.amount),
    BigInt(pending.fromBlock),
  );
  if (found) pending.txHash = found.txHash;
};

/** Balance, proof, then the transfer itself, its hash saved the moment the wallet returns it. */
const transfer = async (ctx: PayContext, option: PayOption, pending: PendingPayment): Promise<string> => {
  const { chain, token } = option;
  const amount = BigInt(pending.amount);
  const recipient = ctx.target.walletAddress;
  await requireBalance(chain, token, pending.account, amount);
  await proveOnce(ctx, pending, { recipient, token, amount, sourceChainId: chain.chainId });
  ctx.onStep({ kind: 'transfer', state: 'active', chainId: chain.chainId });
  pending.fromBlock = (await blockNumber(chain.rpcUrls)).toString();
  ctx.save(pending);
  pending.txHash = await sendFrom(
    ctx.provider!,
    pending.account,
    chain.tokens[token]!,
    encodeTransfer(recipient, amount),
  );
  ctx.save(pending);
  return pending.txHash;
};

/** Chain switch, balance check, proof, transfer, confirmation, record, settlement: resumable at each. */
export const paySameChain = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  const { chainId, rpcUrls } = option.chain;
  if (!pending.txHash) await resumeOrSwitch(ctx, option, pending);
  const txHash = pending.txHash ?? (await transfer(ctx, option, pending));
  ctx.onStep({ kind: 'transfer', state: 'done', chainId, txHash });

  ctx.onStep({ kind: 'confirm', state: 'active', chainId, txHash });
  await requireMined(rpcUrls, txHash, ctx.signal, 'transfer');
  ctx.onStep({ kind: 'confirm', state: 'done', chainId, txHash });

  return recordAndSettle(ctx, pending, {
    txHash,
    expectedAmount: toDecimal(BigInt(pending.amount)),
    chainId,
  });
};

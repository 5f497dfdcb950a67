import { TRANSFER_TOPIC, addressWord, decodeUint, encodeTransfer } from '../eth/abi.js';
import { blockNumber, getLogs, tokenBalance, waitForReceipt } from '../eth/rpc.js';
import { sendTransaction, switchChain } from '../eth/wallet.js';
import { toDecimal } from '../money.js';
import { PayError } from './errors.js';
import { signCheckoutPayment } from './proof.js';
import { recordPayment } from './record.js';
import { waitForSettlement } from './settle.js';
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

/** Chain switch, balance check, proof, transfer, confirmation, record, settlement: resumable at each. */
export const paySameChain = async (
  ctx: PayContext,
  option: PayOption,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  const { chain, token } = option;
  const provider = ctx.provider!;
  const tokenAddress = chain.tokens[token]!;
  const amount = BigInt(pending.amount);
  const recipient = ctx.target.walletAddress;

  if (!pending.txHash) {
    ctx.onStep({ kind: 'switch', state: 'active', chainId: chain.chainId });
    await switchChain(provider, { chainId: chain.chainId, name: chain.name, rpcUrls: chain.rpcUrls });
    ctx.onStep({ kind: 'switch', state: 'done', chainId: chain.chainId });

    // Reloaded while the wallet was sending: the transfer may be on-chain without the page knowing.
    const found = await findTransfer(
      chain.rpcUrls,
      tokenAddress,
      pending.account,
      recipient,
      amount,
      BigInt(pending.fromBlock),
    );
    if (found) pending.txHash = found.txHash;
  }

  if (!pending.txHash) {
    const balance = await tokenBalance(chain.rpcUrls, tokenAddress, pending.account);
    if (balance < amount) {
      throw new PayError('balance', 'Not enough balance', {
        balance: toDecimal(balance),
        amount: toDecimal(amount),
        token,
        chain: chain.name,
      });
    }
    if (ctx.target.sessionId && !pending.proof) {
      ctx.onStep({ kind: 'proof', state: 'active' });
      pending.proof = await signCheckoutPayment(provider, {
        sessionId: ctx.target.sessionId,
        merchantId: ctx.target.merchantId,
        payer: pending.account,
        recipient,
        token,
        amount,
        sourceChainId: chain.chainId,
      });
      ctx.save(pending);
      ctx.onStep({ kind: 'proof', state: 'done' });
    }
    ctx.onStep({ kind: 'transfer', state: 'active', chainId: chain.chainId });
    pending.fromBlock = (await blockNumber(chain.rpcUrls)).toString();
    ctx.save(pending);
    pending.txHash = (
      await sendTransaction(provider, {
        from: pending.account,
        to: tokenAddress,
        data: encodeTransfer(recipient, amount),
      })
    ).toLowerCase();
    ctx.save(pending);
  }
  ctx.onStep({ kind: 'transfer', state: 'done', chainId: chain.chainId, txHash: pending.txHash });

  ctx.onStep({ kind: 'confirm', state: 'active', chainId: chain.chainId, txHash: pending.txHash });
  const mined = await waitForReceipt(chain.rpcUrls, pending.txHash, { signal: ctx.signal });
  if (mined.status !== '0x1') throw new PayError('reverted', 'The transfer reverted');
  ctx.onStep({ kind: 'confirm', state: 'done', chainId: chain.chainId, txHash: pending.txHash });

  await recordPayment(ctx, pending, {
    txHash: pending.txHash,
    expectedAmount: toDecimal(amount),
    chainId: chain.chainId,
  });
  ctx.onStep({ kind: 'settle', state: 'active' });
  const outcome = await waitForSettlement(ctx, pending.paymentId!, pending.txHash);
  ctx.onStep({ kind: 'settle', state: 'done' });
  return outcome;
};

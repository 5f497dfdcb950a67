import { ApiError } from '../api.js';
import { receipt } from '../eth/rpc.js';
import { toDecimal } from '../money.js';
import { recordPayment } from './record.js';
import { findTransfer } from './same-chain.js';
import { waitForSettlement } from './settle.js';
import type { PayContext, PaymentOutcome, PendingPayment } from './types.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/**
 * The customer pays from a wallet the page cannot talk to (a phone scanning the QR code): the page
 * watches the merchant's chain for a transfer of exactly the amount to the merchant's wallet since
 * the code was shown, and records it. A transfer the service refuses (another payment's) is skipped.
 */
export const watchForQrTransfer = async (
  ctx: PayContext,
  pending: PendingPayment,
): Promise<PaymentOutcome> => {
  const chain = ctx.target.merchantChain;
  const token = chain.tokens[pending.token]!;
  const skip = new Set<string>();
  const transferAmount = BigInt(pending.transferAmount ?? pending.amount);
  for (;;) {
    if (!pending.txHash) {
      const found = await findTransfer(
        chain.rpcUrls,
        token,
        undefined,
        ctx.target.walletAddress,
        transferAmount,
        BigInt(pending.fromBlock),
        skip,
      ).catch(() => undefined);
      if (!found) {
        await sleep(2000, ctx.signal);
        continue;
      }
      const mined = await receipt(chain.rpcUrls, found.txHash);
      if (mined?.status !== '0x1') {
        skip.add(found.txHash);
        continue;
      }
      pending.txHash = found.txHash;
      pending.account = found.from;
      ctx.save(pending);
    }
    ctx.onStep({ kind: 'transfer', state: 'done', chainId: chain.chainId, txHash: pending.txHash });
    try {
      await recordPayment(ctx, pending, {
        txHash: pending.txHash,
        expectedAmount: toDecimal(transferAmount),
        chainId: chain.chainId,
      });
    } catch (err) {
      // Someone else's transfer of the same amount: keep watching for this customer's own.
      if (err instanceof ApiError && err.status === 409 && err.code !== 'session_expired') {
        skip.add(pending.txHash);
        pending.txHash = undefined;
        ctx.save(pending);
        continue;
      }
      throw err;
    }
    ctx.onStep({ kind: 'settle', state: 'active' });
    const outcome = await waitForSettlement(ctx, pending.paymentId!, pending.txHash);
    ctx.onStep({ kind: 'settle', state: 'done' });
    return outcome;
  }
};

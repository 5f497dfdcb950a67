import type { CreatePublicPaymentInput, Currency, PublicChain } from '@stablepay/contracts';
import { chainLabel } from '../chains.js';
import type { Hex } from '../eth/abi.js';
import { tokenBalance, waitForReceipt } from '../eth/rpc.js';
import { sendTransaction, switchChain, type Eip1193Provider } from '../eth/wallet.js';
import { toDecimal } from '../money.js';
import { PayError } from './errors.js';
import { signCheckoutPayment } from './proof.js';
import { recordPayment } from './record.js';
import { waitForSettlement } from './settle.js';
import type { PayContext, PaymentOutcome, PendingPayment } from './types.js';

/*
 * The steps every way of paying shares (same-chain, cross-chain, top-up), each saved or shown the
 * same way whichever flow takes it.
 */

/** The wallet moved to `chain`, shown as the switch step. */
export const switchStep = async (ctx: PayContext, chain: PublicChain): Promise<void> => {
  ctx.onStep({ kind: 'switch', state: 'active', chainId: chain.chainId });
  await switchChain(ctx.provider!, chain);
  ctx.onStep({ kind: 'switch', state: 'done', chainId: chain.chainId });
};

/** Refused before anything is signed: the wallet holds less than the transfer needs. */
export const requireBalance = async (
  chain: PublicChain,
  token: Currency,
  account: string,
  needed: bigint,
): Promise<void> => {
  const balance = await tokenBalance(chain.rpcUrls, chain.tokens[token]!, account);
  if (balance < needed) {
    throw new PayError('balance', 'Not enough balance', {
      balance: toDecimal(balance),
      amount: toDecimal(needed),
      token,
      chain: chainLabel(chain),
    });
  }
};

/** A session's proof that this payer pays it, asked of the wallet once and kept with the payment. */
export const proveOnce = async (
  ctx: PayContext,
  pending: PendingPayment,
  claim: { recipient: string; token: Currency; amount: bigint; sourceChainId: number },
): Promise<void> => {
  if (!ctx.target.sessionId || pending.proof) return;
  ctx.onStep({ kind: 'proof', state: 'active' });
  pending.proof = await signCheckoutPayment(ctx.provider!, {
    sessionId: ctx.target.sessionId,
    merchantId: ctx.target.merchantId,
    payer: pending.account,
    ...claim,
  });
  ctx.save(pending);
  ctx.onStep({ kind: 'proof', state: 'done' });
};

/** The wallet's transaction hash, lower-case as the page stores and compares hashes. */
export const sendFrom = async (
  provider: Eip1193Provider,
  from: string,
  to: string,
  data: Hex,
): Promise<string> => (await sendTransaction(provider, { from, to, data })).toLowerCase();

/** Waits for the transaction; one that reverted ends the payment with the customer's sentence. */
export const requireMined = async (
  rpcUrls: readonly string[],
  txHash: string,
  signal: AbortSignal,
  what: string,
): Promise<void> => {
  const mined = await waitForReceipt(rpcUrls, txHash, { signal });
  if (mined.status !== '0x1') throw new PayError('reverted', `The ${what} reverted`);
};

/** The transaction reported to the service, then its verdict awaited. */
export const recordAndSettle = async (
  ctx: PayContext,
  pending: PendingPayment,
  report: Partial<CreatePublicPaymentInput> & { txHash: string; chainId: number },
): Promise<PaymentOutcome> => {
  await recordPayment(ctx, pending, report);
  ctx.onStep({ kind: 'settle', state: 'active' });
  const outcome = await waitForSettlement(ctx, pending.paymentId!, report.txHash);
  ctx.onStep({ kind: 'settle', state: 'done' });
  return { ...outcome, chainId: report.chainId };
};

import type { Currency, PublicChain } from '@stablepay/contracts';
import type { GatewayClient } from '../api.js';
import { encodeTransfer } from '../eth/abi.js';
import { tokenBalance, waitForReceipt } from '../eth/rpc.js';
import { sendTransaction, switchChain, type Eip1193Provider } from '../eth/wallet.js';
import { toDecimal } from '../money.js';
import { PayError } from './errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TopUpRequest {
  api: GatewayClient;
  provider: Eip1193Provider;
  sessionId: string;
  chain: PublicChain;
  token: Currency;
  /** the payment's payer: only its transfers count */
  account: string;
  recipient: string;
  due: bigint;
  signal: AbortSignal;
  onSent(txHash: string): void;
}

/**
 * Sends exactly what is missing from the payer's wallet, reports the transaction, and follows the
 * session until it completes (or asks for more, when less arrived again).
 */
export const sendTopUp = async (r: TopUpRequest): Promise<'complete' | 'still_short'> => {
  const tokenAddress = r.chain.tokens[r.token]!;
  await switchChain(r.provider, { chainId: r.chain.chainId, name: r.chain.name, rpcUrls: r.chain.rpcUrls });
  const balance = await tokenBalance(r.chain.rpcUrls, tokenAddress, r.account);
  if (balance < r.due) {
    throw new PayError('balance', 'Not enough balance', {
      balance: toDecimal(balance),
      amount: toDecimal(r.due),
      token: r.token,
      chain: r.chain.name,
    });
  }
  const txHash = (
    await sendTransaction(r.provider, {
      from: r.account,
      to: tokenAddress,
      data: encodeTransfer(r.recipient, r.due),
    })
  ).toLowerCase();
  r.onSent(txHash);
  const mined = await waitForReceipt(r.chain.rpcUrls, txHash, { signal: r.signal });
  if (mined.status !== '0x1') throw new PayError('reverted', 'The transfer reverted');
  await r.api.reportTopUp(r.sessionId, txHash);
  for (let delay = 1000; ; delay = Math.min(delay + 500, 4000)) {
    r.signal.throwIfAborted();
    await sleep(delay);
    const session = await r.api.session(r.sessionId).catch(() => undefined);
    if (!session) continue;
    if (session.status === 'complete') return 'complete';
    if (session.status === 'expired' || !session.payment || session.payment.status === 'failed')
      throw new PayError('payment_failed', 'The payment failed verification', { reason: 'underpaid' });
    if (session.payment.amount_due && !session.payment.top_up_pending) return 'still_short';
  }
};

import type { Currency, PublicChain } from '@stablepay/contracts';
import type { GatewayClient } from '../api.js';
import { encodeTransfer } from '../eth/abi.js';
import { switchChain, type Eip1193Provider } from '../eth/wallet.js';
import { PayError } from './errors.js';
import { requireBalance, requireMined, sendFrom } from './steps.js';

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
  await switchChain(r.provider, r.chain);
  await requireBalance(r.chain, r.token, r.account, r.due);
  const txHash = await sendFrom(
    r.provider,
    r.account,
    r.chain.tokens[r.token]!,
    encodeTransfer(r.recipient, r.due),
  );
  r.onSent(txHash);
  await requireMined(r.chain.rpcUrls, txHash, r.signal, 'transfer');
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

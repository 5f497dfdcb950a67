import type { TransferFailureReason } from '@stablepay/contracts';
import { balanceOf } from '../chain/erc20.js';
import { blacklisted, type TokenRefusal } from '../chain/fiat-token.js';
import type { TransferRecord } from './transfers-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { blacklistedReason, insufficientFundsReason, pausedNote } from './rules.js';
import { parts, type Step, type TransferOnChain } from './steps.js';

/**
 * What the token's refusal decides for a transfer. A pause is the issuer stopping every movement for
 * a while, so the transfer waits and tries again, with backoff, whatever it has signed already. A
 * blacklisted wallet or recipient is the issuer refusing this transfer for good; a short balance is
 * insufficient_funds; anything else is a plain revert with the token's own words.
 */
export type RefusalVerdict =
  { kind: 'wait'; note: string } | { kind: 'fail'; code: TransferFailureReason; reason: string };

export const judgeRefusal = async (
  { t, rpc, chain }: TransferOnChain,
  refusal: TokenRefusal,
  /** the mined transaction that reverted, when the refusal explains one */
  mined?: { txHash: string },
): Promise<RefusalVerdict> => {
  const { from, token, value } = parts(t);
  switch (refusal.kind) {
    case 'paused':
      return { kind: 'wait', note: pausedNote(t.token, chain.name) };
    case 'blacklisted': {
      const who = await blacklisted(rpc, token, [from, t.toAddress]);
      return {
        kind: 'fail',
        code: 'blacklisted',
        reason: blacklistedReason(t.token, from, t.toAddress, who),
      };
    }
    case 'insufficient_balance': {
      const balance = await balanceOf(rpc, token, from);
      const reason = insufficientFundsReason({
        wallet: from,
        balance,
        value,
        token: t.token,
        chain: chain.name,
        mined: !!mined,
      });
      return { kind: 'fail', code: 'insufficient_funds', reason };
    }
    default:
      return {
        kind: 'fail',
        code: 'reverted',
        reason: mined
          ? `the transfer transaction reverted on ${chain.name} (transaction ${mined.txHash}); the ${t.token} contract now answers "${refusal.message}"`
          : `the ${t.token} contract refuses the transfer: ${refusal.message}`,
      };
  }
};

/**
 * The transfer waits on its token with growing delays (TRANSFER_POLL_MS doubling up to
 * TRANSFER_MAX_BACKOFF_MS); logged when the wait begins, not at every look.
 */
export const waitOnToken = (ctx: WatcherContext, t: TransferRecord, note: string): Step => {
  const log = { idempotencyKey: t.idempotencyKey, chain: t.blockchain, note };
  if (t.backoffStep === 0) ctx.logger.warn('transfer waits on its token', log);
  else ctx.logger.debug('transfer still waits on its token', log);
  return { done: false, delayMs: 0, note, backoff: true };
};

import type { Knex } from 'knex';
import type { ChainConfig } from '@stablepay/contracts';
import type { BroadcastResult, ChainRpc } from '../chain/chain-rpc.js';
import { authorizationDomain, tokenName } from '../chain/fiat-token.js';
import {
  allocateRelayerNonce,
  insertAttempt,
  markBroadcast,
  noteBroadcastError,
  type AttemptAction,
  type AttemptKind,
  type AttemptRecord,
  type NewAttempt,
} from '../relayer/attempts-repo.js';
import { TRANSFER_ATTEMPTS } from '../migrations/migrations.js';
import { lockTransfer, type TransferRecord, type TransferStatus } from './transfers-repo.js';
import type { TransferCrashPoint } from '../config.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { recordSubmitted } from './outcomes.js';
import type { AttemptFees } from './rules.js';

/** The node refused a relayer transaction (relayer out of gas, fee below the base fee, ...). */
export class BroadcastRejected extends Error {
  override readonly name = 'BroadcastRejected';
}

/**
 * Test-only fault injection: the process kills itself, as a crash or an OOM kill would, at a point
 * where a naive sender would lose or repeat a transfer. Nothing runs after it.
 */
export const crashAt = (ctx: WatcherContext, point: TransferCrashPoint): void => {
  if (ctx.transfers.crashPoint !== point) return;
  ctx.logger.warn('TRANSFER_CRASH_POINT reached: killing the process', { point });
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
};

/** The EIP-712 domain of a token, its name read once from the contract. */
export const tokenDomain = async (ctx: WatcherContext, rpc: ChainRpc, token: string) => {
  const key = `${rpc.chain.chainId}:${token.toLowerCase()}`;
  let name = ctx.tokenNames.get(key);
  if (name === undefined) {
    name = await tokenName(rpc, token);
    ctx.tokenNames.set(key, name);
  }
  return authorizationDomain(name, rpc.chain.chainId, token);
};

export interface AttemptPlan {
  action: AttemptAction;
  kind: AttemptKind;
  /** calldata for the token contract */
  data: string;
  gasLimit: bigint;
  fees: AttemptFees;
  /** a replacement reuses its nonce; anything else allocates one, never below the chain's count */
  nonce: { reuse: number } | { allocate: true; chainPending: number };
  /** the transfer must still be in one of these states */
  expect: TransferStatus[];
  /** how many attempts the transfer must have: a worker that lost a race stores nothing */
  after: number;
  /** a guarded state change committed with the attempt; false rolls everything back */
  transition?: (trx: Knex.Transaction) => Promise<boolean>;
}

class PlanStale extends Error {}

/**
 * Allocates the nonce, signs the relayer transaction and stores it, in one transaction and with no
 * RPC inside: once this commits, the exact bytes exist and will be broadcast by whoever gets the
 * transfer next, even if this process dies now. Undefined when another worker got there first.
 */
export const storeAttempt = async (
  ctx: WatcherContext,
  t: TransferRecord,
  chain: ChainConfig,
  plan: AttemptPlan,
): Promise<AttemptRecord | undefined> => {
  const relayer = ctx.relayers.addressOn(chain.chainId);
  if (!relayer || !t.tokenAddress) throw new Error(`transfer ${t.id} cannot be signed on ${chain.name}`);
  let stored: NewAttempt;
  try {
    stored = await ctx.db.transaction(async (trx) => {
      const current = await lockTransfer(trx, t.id);
      if (!plan.expect.includes(current.status)) throw new PlanStale();
      const [{ n }] = (await trx(TRANSFER_ATTEMPTS).where({ transfer_id: t.id }).count('* as n')) as [
        { n: string },
      ];
      if (Number(n) !== plan.after) throw new PlanStale();
      const nonce =
        'reuse' in plan.nonce
          ? plan.nonce.reuse
          : await allocateRelayerNonce(trx, chain.chainId, relayer, plan.nonce.chainPending);
      const legacy = plan.fees.gasPrice !== null;
      const signed = ctx.relayers.sign(chain.chainId, {
        type: legacy ? 0 : 2,
        nonce,
        to: t.tokenAddress,
        data: plan.data,
        value: 0n,
        gasLimit: plan.gasLimit,
        ...(legacy
          ? { gasPrice: plan.fees.gasPrice }
          : { maxFeePerGas: plan.fees.maxFeePerGas, maxPriorityFeePerGas: plan.fees.maxPriorityFeePerGas }),
      });
      const attempt: NewAttempt = {
        transferId: t.id,
        attempt: plan.after + 1,
        kind: plan.kind,
        action: plan.action,
        chainId: chain.chainId,
        relayerAddress: relayer,
        relayerNonce: nonce,
        txHash: signed.hash!.toLowerCase(),
        rawTx: signed.serialized,
        gasLimit: plan.gasLimit,
        ...plan.fees,
      };
      await insertAttempt(trx, attempt);
      if (plan.transition && !(await plan.transition(trx))) throw new PlanStale();
      return attempt;
    });
  } catch (err) {
    if (err instanceof PlanStale) return undefined;
    throw err;
  }
  ctx.metrics.transferAttempts.inc({ chain: chain.name, kind: plan.kind, action: plan.action });
  ctx.logger.info('relayer transaction signed', {
    idempotencyKey: t.idempotencyKey,
    chain: chain.name,
    attempt: stored.attempt,
    kind: plan.kind,
    action: plan.action,
    relayerNonce: stored.relayerNonce,
    txHash: stored.txHash,
  });
  return { ...stored, signedAt: new Date(), broadcastAt: null, lastBroadcastError: null };
};

/**
 * Sends the stored bytes. Broadcasting again is harmless (same bytes, same hash), so this runs after
 * every restart for whatever is not known to have reached a node. A transaction the node holds is
 * marked broadcast, and the transfer announced submitted once; a refusal is thrown to retry later.
 */
export const broadcastAttempt = async (
  ctx: WatcherContext,
  t: TransferRecord,
  rpc: ChainRpc,
  a: AttemptRecord,
): Promise<BroadcastResult> => {
  const result = await rpc.broadcast(a.rawTx);
  ctx.metrics.transferBroadcasts.inc({ chain: rpc.chain.name, result: result.kind });
  if (result.kind === 'rejected') {
    await noteBroadcastError(ctx.db, t.id, a.attempt, result.message);
    throw new BroadcastRejected(
      `${rpc.chain.name} refused relayer transaction ${a.txHash} (relayer ${a.relayerAddress}, nonce ${a.relayerNonce}): ${result.message}`,
    );
  }
  crashAt(ctx, 'after_broadcast');
  // nonce_taken proves nothing about this transaction: the receipts will tell.
  if (result.kind === 'nonce_taken') return result;
  if (!a.broadcastAt) await markBroadcast(ctx.db, t.id, a.attempt);
  if (!t.submittedAt && a.action === 'transfer') await recordSubmitted(ctx, t, a.txHash);
  return result;
};

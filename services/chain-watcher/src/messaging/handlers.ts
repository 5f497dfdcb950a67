import { z } from 'zod';
import {
  EventTypes,
  MerchantCreatedData,
  PaymentCreatedData,
  TransferRequestedData,
  chainById,
  decimalToBaseUnits,
} from '@stablepay/contracts';
import { PermanentError, type TransactionalHandler } from '@stablepay/platform';
import type { WatcherContext } from '../domain/context.js';
import { acceptTransferRequest } from '../domain/transfer-requests.js';
import { assignPrimaryWallet } from '../domain/wallets.js';
import { lockTransaction, markMatched } from '../db/unclaimed-repo.js';
import { insertVerification } from '../db/verifications-repo.js';

/** Parses at the boundary; a payload the contracts refuse can never succeed and is dead-lettered. */
const parse = <S extends z.ZodType>(schema: S, data: unknown, type: string): z.output<S> => {
  const r = schema.safeParse(data);
  if (!r.success) throw new PermanentError(`invalid ${type} data: ${z.prettifyError(r.error)}`);
  return r.data;
};

const onMerchantCreated =
  (ctx: WatcherContext): TransactionalHandler =>
  async (event, trx) => {
    await assignPrimaryWallet(ctx, trx, parse(MerchantCreatedData, event.data, event.type));
  };

/**
 * Only records the payment as a verification to do, in the inbox transaction: the chain is asked
 * later by the verifier, outside any transaction, so a slow RPC never holds a message or a lock.
 * Cross-chain payments are verified by the CCTP flow, not here.
 */
const onPaymentCreated =
  (ctx: WatcherContext): TransactionalHandler =>
  async (event, trx) => {
    const p = parse(PaymentCreatedData, event.data, event.type);
    if (p.isCrossChain) return;
    let expectedUnits: bigint;
    try {
      expectedUnits = decimalToBaseUnits(p.expectedAmount ?? p.amount);
    } catch (err) {
      throw new PermanentError(`payment ${p.paymentId}: ${(err as Error).message}`);
    }
    const txHash = p.txHash.toLowerCase();
    await lockTransaction(trx, p.chainId, txHash);
    await insertVerification(trx, {
      paymentId: p.paymentId,
      merchantId: p.merchantId,
      txHash,
      chainId: p.chainId,
      sourceChain: p.sourceChain,
      token: p.currency,
      fromAddress: p.fromAddress,
      toAddress: p.toAddress,
      expectedUnits,
      sessionCreatedAt: p.sessionCreatedAt ? new Date(p.sessionCreatedAt) : null,
      paymentCreatedAt: new Date(p.createdAt),
    });
    const matched = await markMatched(trx, p.chainId, txHash, p.paymentId);
    if (matched > 0) {
      const chain = chainById(ctx.registry, p.chainId)?.name ?? String(p.chainId);
      ctx.metrics.unclaimedMatched.inc({ chain }, matched);
      ctx.logger.info('unclaimed transfer matched', { paymentId: p.paymentId, chain, txHash });
    }
  };

/** A command to move money: recorded here, sent by the transfer sender (see transfer-requests.ts). */
const onTransferRequested =
  (ctx: WatcherContext): TransactionalHandler =>
  async (event, trx) => {
    await acceptTransferRequest(ctx, trx, parse(TransferRequestedData, event.data, event.type));
  };

/** Every event the chain-watcher consumes, with its handler: one list, registered at start. */
export const chainWatcherHandlers = (ctx: WatcherContext): Record<string, TransactionalHandler> => ({
  [EventTypes.MerchantCreated]: onMerchantCreated(ctx),
  [EventTypes.PaymentCreated]: onPaymentCreated(ctx),
  [EventTypes.TransferRequested]: onTransferRequested(ctx),
});

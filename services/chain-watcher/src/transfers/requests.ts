import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { getAddress } from 'ethers';
import { chainByName, decimalToBaseUnits, type TransferRequestedData } from '@stablepay/contracts';
import { PermanentError } from '@stablepay/platform';
import { authorizationNonce } from '../chain/fiat-token.js';
import { findTransferByKey, insertTransfer, type TransferRecord } from './transfers-repo.js';
import { findPrimaryWallet } from '../wallets/wallets-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { republishOutcome, writeFailedEvent } from './outcomes.js';
import { checkTransferRequest } from './rules.js';

const sameAmount = (a: string, b: string): boolean => {
  try {
    return decimalToBaseUnits(a) === decimalToBaseUnits(b);
  } catch {
    return a === b;
  }
};

/** The command a stored transfer was created from, field by field. */
const sameCommand = (t: TransferRecord, cmd: TransferRequestedData): boolean =>
  t.purpose === cmd.purpose &&
  t.merchantId.toLowerCase() === cmd.merchantId.toLowerCase() &&
  t.blockchain === cmd.blockchain &&
  t.token === cmd.token &&
  t.toAddress.toLowerCase() === cmd.toAddress.toLowerCase() &&
  sameAmount(t.amount, cmd.amount);

export type RequestOutcome = 'accepted' | 'refused' | 'repeat_open' | 'repeat_republished';

/**
 * Records a transfer command in the inbox transaction; nothing is signed or sent here (the sender
 * does that outside any transaction). The idempotency key is unique: a command repeated under the
 * same key creates nothing. If that transfer has finished, its outcome is published again so that a
 * requester asking twice always gets an answer; while it is open, the outcome follows once. The same
 * key with different content is a requester's bug: it is dead-lettered, and the first command stands.
 * A command that can never be carried out is stored as failed and answered `invalid_request` at once.
 */
export const acceptTransferRequest = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  cmd: TransferRequestedData,
): Promise<RequestOutcome> => {
  // Read in the handler's transaction: on the embedded database a second connection would wait on it.
  const wallet = await findPrimaryWallet(trx, cmd.merchantId);
  const check = checkTransferRequest(cmd, wallet, chainByName(ctx.registry, cmd.blockchain));
  const inserted = await insertTransfer(trx, {
    id: randomUUID(),
    idempotencyKey: cmd.idempotencyKey,
    purpose: cmd.purpose,
    merchantId: cmd.merchantId,
    blockchain: cmd.blockchain,
    chainId: check.ok ? check.chain.chainId : null,
    token: cmd.token,
    tokenAddress: check.ok ? getAddress(check.tokenAddress) : null,
    fromAddress: check.ok ? check.wallet.address : null,
    toAddress: getAddress(cmd.toAddress.toLowerCase()),
    amount: cmd.amount,
    amountUnits: check.ok ? check.units : null,
    authNonce: authorizationNonce(cmd.idempotencyKey),
    ...(check.ok ? {} : { failure: { code: 'invalid_request' as const, reason: check.reason } }),
  });
  const log = { idempotencyKey: cmd.idempotencyKey, purpose: cmd.purpose, chain: cmd.blockchain };
  if (inserted) {
    if (check.ok) {
      ctx.logger.info('transfer requested', { ...log, token: cmd.token, amount: cmd.amount });
      return 'accepted';
    }
    await writeFailedEvent(ctx, trx, inserted, {
      code: 'invalid_request',
      reason: check.reason,
      txHash: null,
    });
    ctx.metrics.transferOutcomes.inc({ chain: cmd.blockchain, outcome: 'failed', code: 'invalid_request' });
    ctx.logger.warn('transfer request refused', { ...log, reason: check.reason });
    return 'refused';
  }
  const existing = await findTransferByKey(trx, cmd.idempotencyKey);
  if (!existing) throw new Error(`transfer ${cmd.idempotencyKey} vanished`);
  if (!sameCommand(existing, cmd)) {
    throw new PermanentError(
      `transfer ${cmd.idempotencyKey} was already requested with other content (purpose, merchant, chain, token, amount or recipient); the first request stands`,
    );
  }
  if (await republishOutcome(ctx, trx, existing)) {
    ctx.logger.info('transfer requested again: outcome published again', { ...log, status: existing.status });
    return 'repeat_republished';
  }
  return 'repeat_open';
};

import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { baseUnitsToDecimal, decimalToBaseUnits, type CreateWithdrawalBody } from '@stablepay/contracts';
import { createOnce, madeByKey, type RequestKey } from '@stablepay/platform';
import { splitFee, type FeeSplit } from '../amounts.js';
import type { InvoicingContext } from '../context.js';
import { approvedDestination } from '../withdrawal-addresses/withdrawal-addresses.js';
import type { MerchantWallet } from './balances.js';
import type { WithdrawalRecord } from './records.js';
import { withdrawalEventBase } from './withdrawal-events.js';
import { checkEmailConfirmed, checkRequest, readWallet, refused } from './withdrawal-checks.js';
import { transferKey } from './withdrawal-rules.js';
import {
  committedOutflow,
  databaseNow,
  findWithdrawalByRequestKey,
  insertWithdrawal,
  lockMerchantWithdrawals,
} from './withdrawals-repo.js';

/**
 * POST /withdrawals(/api/create). The balance is read first, outside any transaction; then, holding
 * the merchant's withdrawal lock, what is already committed (withdrawal transfers not settled,
 * refunds in flight) is taken off it, so withdrawals requested at once can never together take more
 * than the wallet holds. The withdrawal, both transfer commands and withdrawal.requested are
 * committed together; nothing moves when any check refuses. With the client's Idempotency-Key
 * (`requestKey`), a request that already made a withdrawal returns it and moves nothing again (the
 * key with another body is a 422): the gateway forgets a key whose answer it never got, so only this
 * check stops a second withdrawal; it is made again under the merchant's lock.
 */
export const createWithdrawal = (
  ctx: InvoicingContext,
  merchantId: string,
  body: CreateWithdrawalBody,
  requestKey?: RequestKey,
): Promise<WithdrawalRecord> =>
  createOnce({
    requestKey,
    uniqueIndex: 'withdrawals_merchant_request_key_idx',
    find: (key) => findWithdrawalByRequestKey(ctx.db, merchantId, key),
    create: () => decideWithdrawal(ctx, merchantId, body, requestKey),
  });

/** What the request may take, checked before the lock; the balance was read outside any transaction. */
interface CheckedRequest {
  body: CreateWithdrawalBody;
  wallet: MerchantWallet;
  balanceReadAt: Date;
  requestKey: RequestKey | undefined;
}

const decideWithdrawal = async (
  ctx: InvoicingContext,
  merchantId: string,
  body: CreateWithdrawalBody,
  requestKey: RequestKey | undefined,
): Promise<WithdrawalRecord> => {
  // An account that has not confirmed its address withdraws nothing, wherever to.
  await checkEmailConfirmed(ctx, merchantId);
  // Then the address book: a refused destination says so whether or not the wallet can be read.
  await approvedDestination(ctx.db, merchantId, body.destination_address);
  const balanceReadAt = await databaseNow(ctx.db);
  const wallet = await readWallet(ctx, merchantId);
  checkRequest(wallet, body);
  const checked: CheckedRequest = { body, wallet, balanceReadAt, requestKey };
  let replayed = false;
  const withdrawal = await ctx.db.transaction(async (trx) => {
    await lockMerchantWithdrawals(trx, merchantId);
    // Under the merchant's lock: a request with the same key that committed meanwhile is found here.
    const made = await madeByKey(requestKey, (key) => findWithdrawalByRequestKey(trx, merchantId, key));
    if (made) {
      replayed = true;
      return made;
    }
    return recordWithdrawal(ctx, trx, merchantId, checked);
  });
  if (replayed) return withdrawal;
  ctx.logger.info('withdrawal requested', {
    withdrawalId: withdrawal.id,
    amount: withdrawal.grossAmount,
    fee: withdrawal.feeAmount,
    token: withdrawal.currency,
  });
  return withdrawal;
};

/**
 * Under the merchant's lock: the destination still on the book, the split within what is available,
 * then the withdrawal, both transfer commands and withdrawal.requested, written together.
 */
const recordWithdrawal = async (
  ctx: InvoicingContext,
  trx: Knex.Transaction,
  merchantId: string,
  { body, wallet, balanceReadAt, requestKey }: CheckedRequest,
): Promise<WithdrawalRecord> => {
  // Again under the lock: a removal that committed meanwhile is seen here.
  const destination = await approvedDestination(trx, merchantId, body.destination_address);
  const committed = await committedOutflow(trx, merchantId, body.currency, wallet.blockchain, balanceReadAt);
  const balance = decimalToBaseUnits(wallet.balances.get(body.currency)!);
  const { gross, fee, net } = splitWithinAvailable(ctx, body, balance - decimalToBaseUnits(committed));
  const created = await insertWithdrawal(trx, {
    id: randomUUID(),
    merchant_id: merchantId,
    currency: body.currency,
    blockchain: wallet.blockchain,
    destination_address: destination.address,
    treasury_address: ctx.treasuryAddress,
    gross_amount: baseUnitsToDecimal(gross),
    fee_amount: baseUnitsToDecimal(fee),
    net_amount: baseUnitsToDecimal(net),
    fee_rate: ctx.fees.rate,
    request_key: requestKey?.key ?? null,
    request_fingerprint: requestKey?.fingerprint ?? null,
  });
  await requestTransfers(ctx, trx, created);
  await announceRequested(ctx, trx, created);
  return created;
};

/** The amount asked (everything available when none is), split into fee and net; refused past what is available. */
const splitWithinAvailable = (
  ctx: InvoicingContext,
  body: CreateWithdrawalBody,
  free: bigint,
): FeeSplit & { gross: bigint } => {
  const available = free > 0n ? free : 0n;
  const availableText = `${baseUnitsToDecimal(available)} ${body.currency}`;
  if (available === 0n) {
    throw refused(
      'Nothing is available to withdraw',
      'amount',
      `Available: ${availableText}`,
      'nothing_available',
    );
  }
  const gross = body.amount === undefined ? available : decimalToBaseUnits(body.amount);
  if (gross > available) {
    throw refused(
      'The amount exceeds what is available to withdraw',
      'amount',
      `At most ${availableText} can be withdrawn now`,
      'amount_exceeds_available',
    );
  }
  const { fee, net } = splitFee(gross, ctx.fees);
  if (net <= 0n) {
    throw refused(
      'The amount does not cover the withdrawal fee',
      'amount',
      `The fee is ${baseUnitsToDecimal(fee)} ${body.currency}; withdraw more than that`,
      'amount_below_fee',
    );
  }
  return { gross, fee, net };
};

const announceRequested = (ctx: InvoicingContext, trx: Knex.Transaction, w: WithdrawalRecord) =>
  ctx.writeEvent(trx, 'withdrawal.requested', w.merchantId, {
    ...withdrawalEventBase(w),
    requestedAt: w.createdAt.toISOString(),
  });

/**
 * Both transfers at once, from the merchant wallet: the net amount to the destination and the fee to
 * the treasury. Each key is derived from the withdrawal id, so the chain-watcher sends each at most
 * once however often the command is delivered.
 */
const requestTransfers = async (ctx: InvoicingContext, trx: Knex.Transaction, w: WithdrawalRecord) => {
  const common = {
    purpose: 'withdrawal' as const,
    merchantId: w.merchantId,
    blockchain: w.blockchain,
    token: w.currency,
  };
  await ctx.writeEvent(trx, 'transfer.requested', w.merchantId, {
    ...common,
    idempotencyKey: transferKey(w.id, 'net'),
    amount: w.netAmount,
    toAddress: w.destinationAddress,
  });
  await ctx.writeEvent(trx, 'transfer.requested', w.merchantId, {
    ...common,
    idempotencyKey: transferKey(w.id, 'fee'),
    amount: w.feeAmount,
    toAddress: w.treasuryAddress,
  });
};

import { randomUUID } from 'node:crypto';
import { baseUnitsToDecimal, decimalToBaseUnits, type CreateWithdrawalBody } from '@stablepay/contracts';
import { AppError, createOnce, fieldDetail, madeByKey, type RequestKey } from '@stablepay/platform';
import { BalanceUnavailableError, type MerchantWallet } from './balances.js';
import { findMerchant } from '../projections/merchants-repo.js';
import {
  committedOutflow,
  databaseNow,
  findWithdrawalByRequestKey,
  insertWithdrawal,
  lockMerchantWithdrawals,
} from './withdrawals-repo.js';
import { splitFee } from '../amounts.js';
import { writeEvent, type InvoicingContext } from '../context.js';
import type { WithdrawalRecord } from './records.js';
import { approvedDestination } from '../withdrawal-addresses/withdrawal-addresses.js';
import { isZeroAddress, transferKey } from './withdrawal-rules.js';

const refused = (message: string, path: string, detail: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail(path, detail, code)]);

/** The wallet as the chain-watcher sees it now; every failure to read it is a 503 and nothing moves. */
const readWallet = async (ctx: InvoicingContext, merchantId: string): Promise<MerchantWallet> => {
  let wallet: MerchantWallet | null;
  try {
    wallet = await ctx.balances.walletBalances(merchantId);
  } catch (err) {
    if (!(err instanceof BalanceUnavailableError)) throw err;
    ctx.logger.warn('wallet balance unavailable; withdrawal refused', { merchantId, err: err.message });
    throw new AppError(
      'unavailable',
      'The wallet balance cannot be read right now; try again shortly',
      [],
      5,
    );
  }
  if (!wallet) {
    throw refused(
      'The merchant has no wallet to withdraw from yet',
      '',
      'A wallet is assigned shortly after registration',
      'no_wallet',
    );
  }
  return wallet;
};

/** What the request names that the wallet cannot serve: another chain, a token the chain lacks, a bad destination. */
const checkRequest = (wallet: MerchantWallet, body: CreateWithdrawalBody): void => {
  if (body.blockchain && body.blockchain !== wallet.blockchain) {
    throw refused(
      `Withdrawals leave from the merchant wallet on ${wallet.blockchain}`,
      'blockchain',
      `The merchant's chain is ${wallet.blockchain}, not ${body.blockchain}`,
      'unsupported_chain',
    );
  }
  if (!wallet.balances.has(body.currency)) {
    throw refused(
      `${body.currency} is not available on ${wallet.blockchain}`,
      'currency',
      `Tokens on ${wallet.blockchain}: ${[...wallet.balances.keys()].join(', ') || 'none'}`,
      'unsupported_token',
    );
  }
  if (isZeroAddress(body.destination_address)) {
    throw refused(
      'The destination cannot be the zero address',
      'destination_address',
      'Tokens sent there are lost',
      'invalid_destination',
    );
  }
  if (body.destination_address.toLowerCase() === wallet.address.toLowerCase()) {
    throw refused(
      'The destination is the merchant wallet itself',
      'destination_address',
      'Name an address outside the merchant wallet',
      'invalid_destination',
    );
  }
};

/**
 * Money leaves only for a merchant whose account address is confirmed, as this service learnt from
 * merchant.email_confirmed (or merchant.created, for accounts older than confirmation). A merchant it
 * has not heard of is refused too: it cannot know that one's address is confirmed.
 */
const checkEmailConfirmed = async (ctx: InvoicingContext, merchantId: string): Promise<void> => {
  const merchant = await findMerchant(ctx.db, merchantId);
  if (merchant?.emailConfirmed) return;
  const message = "Withdrawals wait until the account's e-mail address is confirmed";
  throw new AppError('forbidden', message, [
    fieldDetail('', 'Follow the link e-mailed at registration, or ask for a new one', 'email_not_confirmed'),
  ]);
};

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
  const balance = decimalToBaseUnits(wallet.balances.get(body.currency)!);
  let replayed = false;
  const withdrawal = await ctx.db.transaction(async (trx) => {
    await lockMerchantWithdrawals(trx, merchantId);
    // Under the merchant's lock: a request with the same key that committed meanwhile is found here.
    const made = await madeByKey(requestKey, (key) => findWithdrawalByRequestKey(trx, merchantId, key));
    if (made) {
      replayed = true;
      return made;
    }
    // Again under the lock: a removal that committed meanwhile is seen here.
    const destination = await approvedDestination(trx, merchantId, body.destination_address);
    const committed = decimalToBaseUnits(
      await committedOutflow(trx, merchantId, body.currency, wallet.blockchain, balanceReadAt),
    );
    const available = balance > committed ? balance - committed : 0n;
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
    await requestTransfers(trx, created);
    await writeEvent(trx, 'withdrawal.requested', merchantId, {
      withdrawalId: created.id,
      merchantId,
      amount: created.grossAmount,
      fee: created.feeAmount,
      netAmount: created.netAmount,
      currency: created.currency,
      blockchain: created.blockchain,
      destinationAddress: created.destinationAddress,
      treasuryAddress: created.treasuryAddress,
      requestedAt: created.createdAt.toISOString(),
    });
    return created;
  });
  if (replayed) return withdrawal;
  ctx.eventsCommitted();
  ctx.logger.info('withdrawal requested', {
    withdrawalId: withdrawal.id,
    amount: withdrawal.grossAmount,
    fee: withdrawal.feeAmount,
    token: withdrawal.currency,
  });
  return withdrawal;
};

/**
 * Both transfers at once, from the merchant wallet: the net amount to the destination and the fee to
 * the treasury. Each key is derived from the withdrawal id, so the chain-watcher sends each at most
 * once however often the command is delivered.
 */
const requestTransfers = async (trx: Parameters<typeof writeEvent>[0], w: WithdrawalRecord) => {
  const common = {
    purpose: 'withdrawal' as const,
    merchantId: w.merchantId,
    blockchain: w.blockchain,
    token: w.currency,
  };
  await writeEvent(trx, 'transfer.requested', w.merchantId, {
    ...common,
    idempotencyKey: transferKey(w.id, 'net'),
    amount: w.netAmount,
    toAddress: w.destinationAddress,
  });
  await writeEvent(trx, 'transfer.requested', w.merchantId, {
    ...common,
    idempotencyKey: transferKey(w.id, 'fee'),
    amount: w.feeAmount,
    toAddress: w.treasuryAddress,
  });
};

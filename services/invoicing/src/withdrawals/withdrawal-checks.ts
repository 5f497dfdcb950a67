import type { CreateWithdrawalBody } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import type { InvoicingContext } from '../context.js';
import { findMerchant } from '../projections/merchants-repo.js';
import { BalanceUnavailableError, type MerchantWallet } from './balances.js';
import { isZeroAddress } from './withdrawal-rules.js';

export const refused = (message: string, path: string, detail: string, code: string): AppError =>
  new AppError('unprocessable', message, [fieldDetail(path, detail, code)]);

/** The wallet as the chain-watcher sees it now; every failure to read it is a 503 and nothing moves. */
export const readWallet = async (ctx: InvoicingContext, merchantId: string): Promise<MerchantWallet> => {
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
export const checkRequest = (wallet: MerchantWallet, body: CreateWithdrawalBody): void => {
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
export const checkEmailConfirmed = async (ctx: InvoicingContext, merchantId: string): Promise<void> => {
  const merchant = await findMerchant(ctx.db, merchantId);
  if (merchant?.emailConfirmed) return;
  const message = "Withdrawals wait until the account's e-mail address is confirmed";
  throw new AppError('forbidden', message, [
    fieldDetail('', 'Follow the link e-mailed at registration, or ask for a new one', 'email_not_confirmed'),
  ]);
};

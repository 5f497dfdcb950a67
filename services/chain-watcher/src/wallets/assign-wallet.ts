import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { EventTypes, chainByName, type MerchantCreatedData } from '@stablepay/contracts';
import { PermanentError } from '@stablepay/platform';
import { DERIVATION_SCHEME } from '../custody/key-derivation.js';
import { insertPrimaryWallet, type WalletRecord } from './wallets-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';

/**
 * Creates the merchant's primary wallet on the merchant's blockchain and announces it, in the
 * transaction that records the merchant.created message. A blockchain this deployment does not serve
 * can never succeed, however often it is retried: the message is dead-lettered with the reason.
 * A merchant that already has a wallet keeps it and nothing is announced again.
 */
export const assignPrimaryWallet = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  merchant: MerchantCreatedData,
): Promise<WalletRecord | undefined> => {
  const chain = chainByName(ctx.registry, merchant.blockchain);
  if (!chain) {
    throw new PermanentError(
      `merchant ${merchant.merchantId} uses blockchain ${merchant.blockchain}, which the ${ctx.registry.network} chain registry does not serve (served: ${ctx.registry.chains.map((c) => c.name).join(', ') || 'none'})`,
    );
  }
  const wallet = await insertPrimaryWallet(trx, {
    id: randomUUID(),
    merchantId: merchant.merchantId,
    address: await ctx.signer.addressOf(merchant.merchantId),
    blockchain: chain.name,
    chainId: chain.chainId,
    derivation: DERIVATION_SCHEME,
  });
  if (!wallet) return undefined;
  await ctx.writeEvent(trx, EventTypes.WalletAssigned, merchant.merchantId, {
    merchantId: merchant.merchantId,
    walletId: wallet.id,
    address: wallet.address,
    blockchain: wallet.blockchain,
    chainId: wallet.chainId,
  });
  ctx.logger.info('wallet assigned', {
    merchantId: merchant.merchantId,
    walletId: wallet.id,
    chain: chain.name,
  });
  return wallet;
};

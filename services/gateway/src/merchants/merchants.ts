import type { MerchantInfo, MerchantWalletData } from '@stablepay/contracts';
import { AppError, notFound } from '@stablepay/platform';
import { findMerchantById, findMerchantByPublicId, type MerchantRow } from '../accounts/users-repo.js';
import { findMerchantWallet } from '../wallets/wallets-repo.js';
import type { GatewayContext } from '../gateway-context.js';
import { parseMerchantRef } from './merchant-ids.js';

const findMerchant = async (ctx: GatewayContext, idOrPublicId: string): Promise<MerchantRow> => {
  const ref = parseMerchantRef(idOrPublicId);
  const merchant =
    ref?.kind === 'public'
      ? await findMerchantByPublicId(ctx.db, ref.publicId)
      : ref?.kind === 'internal'
        ? await findMerchantById(ctx.db, ref.id)
        : undefined;
  if (!merchant) throw notFound('Merchant');
  return merchant;
};

export const merchantInfo = async (ctx: GatewayContext, idOrPublicId: string): Promise<MerchantInfo> => {
  const merchant = await findMerchant(ctx, idOrPublicId);
  return {
    name: merchant.name,
    blockchain: merchant.blockchain as MerchantInfo['blockchain'],
    accepted_currencies: merchant.accepted_currencies.join(','),
  };
};

export const merchantWallet = async (
  ctx: GatewayContext,
  idOrPublicId: string,
): Promise<MerchantWalletData> => {
  const merchant = await findMerchant(ctx, idOrPublicId);
  const wallet = await findMerchantWallet(ctx.db, merchant.id);
  if (!wallet) throw new AppError('not_found', 'Wallet not assigned');
  return {
    wallet: {
      id: wallet.wallet_id,
      address: wallet.address,
      blockchain: wallet.blockchain as MerchantWalletData['wallet']['blockchain'],
      chainId: wallet.chain_id,
    },
  };
};

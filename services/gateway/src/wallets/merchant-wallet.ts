import type { MerchantWalletData } from '@stablepay/contracts';
import { AppError } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import { findMerchant } from '../merchants/merchants.js';
import { findMerchantWallet } from './wallets-repo.js';

/** The wallet the chain-watcher assigned to the merchant, from the gateway's projection of it. */
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

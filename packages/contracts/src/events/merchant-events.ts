import { z } from 'zod';
import { BlockchainName, ChainId, Currency, EvmAddress, MerchantPublicId, Uuid } from '../common.js';

export const MerchantCreatedData = z.object({
  merchantId: Uuid,
  publicId: MerchantPublicId,
  name: z.string(),
  blockchain: BlockchainName,
  acceptedCurrencies: z.array(Currency),
  email: z.string(),
});
export type MerchantCreatedData = z.infer<typeof MerchantCreatedData>;

export const WalletAssignedData = z.object({
  merchantId: Uuid,
  walletId: Uuid,
  address: EvmAddress,
  blockchain: BlockchainName,
  chainId: ChainId,
});
export type WalletAssignedData = z.infer<typeof WalletAssignedData>;

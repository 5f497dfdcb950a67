import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, EvmAddress, MerchantPublicId, Uuid } from '../shared/scalars.js';

/** `:id` of /merchants/:id/* is the public merchant id. */
export const MerchantIdParams = z.object({ id: MerchantPublicId });
export type MerchantIdParams = z.infer<typeof MerchantIdParams>;

export const MerchantWallet = z.object({
  id: Uuid,
  address: EvmAddress,
  blockchain: BlockchainName,
  chainId: z.number().int().positive(),
});
export type MerchantWallet = z.infer<typeof MerchantWallet>;

export const MerchantWalletData = z.object({ wallet: MerchantWallet });
export type MerchantWalletData = z.infer<typeof MerchantWalletData>;
export const MerchantWalletResponse = successEnvelope(MerchantWalletData);
export type MerchantWalletResponse = z.infer<typeof MerchantWalletResponse>;

export const MerchantInfo = z.object({
  name: z.string(),
  blockchain: BlockchainName,
  /** comma-separated, e.g. `USDC,EURC` */
  accepted_currencies: z.string().regex(/^(USDC|EURC)(,(USDC|EURC))*$/),
});
export type MerchantInfo = z.infer<typeof MerchantInfo>;
export const MerchantInfoResponse = successEnvelope(MerchantInfo);
export type MerchantInfoResponse = z.infer<typeof MerchantInfoResponse>;

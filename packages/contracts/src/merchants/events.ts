import { z } from 'zod';
import { Currency } from '../shared/money.js';
import { BlockchainName, MerchantPublicId, Uuid } from '../shared/scalars.js';

export const MerchantCreatedData = z.object({
  merchantId: Uuid,
  publicId: MerchantPublicId,
  name: z.string(),
  blockchain: BlockchainName,
  acceptedCurrencies: z.array(Currency),
  email: z.string(),
  /**
   * Whether the account's e-mail address is confirmed. Absent in events written before confirmation
   * existed: those accounts count as confirmed.
   */
  emailConfirmed: z.boolean().optional(),
});
export type MerchantCreatedData = z.infer<typeof MerchantCreatedData>;

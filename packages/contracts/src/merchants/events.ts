import { z } from 'zod';
import { NetworkFeeBearer } from '../gasless/schemas.js';
import { LanguageCode } from '../shared/language-code.js';
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
  /** the language the merchant is written to in; absent (English) in events written before languages */
  language: LanguageCode.optional(),
});
export type MerchantCreatedData = z.infer<typeof MerchantCreatedData>;

/**
 * merchant.settings_updated: what customers see of the merchant and who bears a gasless payment's
 * network fee, whole, after every change. `version` grows with each change, so a consumer keeps the
 * highest it saw and an older copy delivered late changes nothing.
 */
export const MerchantSettingsUpdatedData = z.object({
  merchantId: Uuid,
  version: z.number().int().positive(),
  name: z.string(),
  accentColor: z.string().nullable(),
  /** the served logo's path (with its content hash), null without a logo */
  logoUrl: z.string().nullable(),
  /** null: the deployment's default (GASLESS_FEE_BEARER) */
  networkFeeBearer: NetworkFeeBearer.nullable(),
  /** the merchant's language (the dashboard's, chosen there): e-mails to the merchant are written in it; absent in events written before it existed */
  language: LanguageCode.nullable().optional(),
});
export type MerchantSettingsUpdatedData = z.infer<typeof MerchantSettingsUpdatedData>;

import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, EvmAddress, MerchantPublicId, Uuid } from '../shared/scalars.js';
import { BIDI_CONTROLS, MERCHANT_NAME_MAX } from './name-rules.js';

/** `:id` of /merchants/:id/* is the public merchant id. */
export const MerchantIdParams = z.object({ id: MerchantPublicId });

/** A merchant's name as customers see it on the checkout page, e-mails and invoices. */
export const MerchantName = z
  .string()
  .trim()
  .min(1)
  .max(MERCHANT_NAME_MAX)
  .refine((name) => !BIDI_CONTROLS.test(name), {
    message:
      'must not contain bidirectional control characters (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C)',
  });

/** `?v=` is the logo's content hash, only there to change the URL when the logo changes. */
export const MerchantLogoQuery = z.object({ v: z.string().max(64).optional() });
export type MerchantLogoQuery = z.infer<typeof MerchantLogoQuery>;

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

export const MerchantInfo = z.object({
  name: z.string(),
  blockchain: BlockchainName,
  /** comma-separated, e.g. `USDC,EURC` */
  accepted_currencies: z.string().regex(/^(USDC|EURC)(,(USDC|EURC))*$/),
  /** the logo as we serve it, relative to the API's base URL; null without one (extension) */
  logo_url: z.string().nullable(),
  /** `#rrggbb`, readable under white text; null: the page's own colour (extension) */
  accent_color: z.string().nullable(),
});
export type MerchantInfo = z.infer<typeof MerchantInfo>;
export const MerchantInfoResponse = successEnvelope(MerchantInfo);

import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, EvmAddress, MerchantPublicId, Uuid } from '../shared/scalars.js';

/** `:id` of /merchants/:id/* is the public merchant id. */
export const MerchantIdParams = z.object({ id: MerchantPublicId });

/**
 * Characters that reorder the text around them without being seen: the embeddings and overrides
 * U+202A–202E, the isolates U+2066–2069 and the marks U+200E, U+200F and U+061C. A merchant name
 * holding one would read differently to the customer than it was typed (`\u202Egnp.exe Shop` shows
 * as "pohS exe.png"), so it is refused wherever a name is set.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** A merchant's name as customers see it on the checkout page, e-mails and invoices. */
export const MerchantName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !BIDI_CONTROLS.test(name), {
    message:
      'must not contain bidirectional control characters (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C)',
  });

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
});
export type MerchantInfo = z.infer<typeof MerchantInfo>;
export const MerchantInfoResponse = successEnvelope(MerchantInfo);

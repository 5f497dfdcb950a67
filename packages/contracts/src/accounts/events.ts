import { z } from 'zod';
import { LanguageCode } from '../shared/language-code.js';
import { IsoTimestamp, Uuid } from '../shared/scalars.js';

/** The account's owner followed the confirmation link: the merchant may be e-mailed and may withdraw. */
export const MerchantEmailConfirmedData = z.object({
  merchantId: Uuid,
  email: z.string(),
});

/**
 * Account e-mails the gateway asks the notifier to send: the confirmation link of a new (or still
 * unconfirmed) account, or a notice to a confirmed account's owner that someone tried to register
 * with their address. The confirmation link carries a secret, so it travels sealed (the platform's
 * sealText, under INTERNAL_TOKEN_SECRET): neither the gateway's outbox nor the broker holds it in
 * the clear, and the gateway keeps only its hash.
 */
export const AccountEmailRequestedData = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('email_confirmation'),
    merchantId: Uuid,
    email: z.string(),
    merchantName: z.string(),
    /** the language to write it in; absent (English) in events written before languages */
    language: LanguageCode.optional(),
    sealedLink: z.string().min(1),
    expiresAt: IsoTimestamp,
  }),
  z.object({
    kind: z.literal('registration_attempted'),
    merchantId: Uuid,
    email: z.string(),
    merchantName: z.string(),
    language: LanguageCode.optional(),
    /** the dashboard's sign-in page */
    link: z.url(),
  }),
]);
export type AccountEmailRequestedData = z.infer<typeof AccountEmailRequestedData>;

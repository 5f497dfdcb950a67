import { MERCHANT_PUBLIC_ID_RE, Uuid } from '@stablepay/contracts';
import { z } from 'zod';

/** `<prefix>_<environment>_<uuid>`: the uuid is the merchant's internal id, so both name one row. */
export const merchantPublicId = (prefix: string, environment: string, merchantId: string): string =>
  `${prefix}_${environment}_${merchantId}`;

export type MerchantRef = { kind: 'public'; publicId: string } | { kind: 'internal'; id: string };

/** The merchant a path names, by public id or internal UUID; undefined when it names neither. */
export const parseMerchantRef = (value: string): MerchantRef | undefined => {
  if (MERCHANT_PUBLIC_ID_RE.test(value)) return { kind: 'public', publicId: value };
  if (Uuid.safeParse(value).success) return { kind: 'internal', id: value.toLowerCase() };
  return undefined;
};

/**
 * The catalogue names a merchant by its public id; the gateway also resolves the internal UUID
 * (links made with it keep working) and answers any other text like an unknown merchant (404), so
 * routes naming a merchant take the id as text and the domain decides.
 */
export const MerchantRefParams = z.object({ id: z.string() });

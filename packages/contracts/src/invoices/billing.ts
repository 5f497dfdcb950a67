/**
 * The merchant's billing profile: who invoices are addressed to and in which language, and what
 * decides their tax (country, VAT number). Our extension, served by the invoicing service under
 * /billing-profile (dashboard sessions only).
 */
import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { LanguageCode } from '../shared/language-code.js';
import { IsoTimestamp } from '../shared/scalars.js';

/** Languages an invoice can be written in: the product's five. */
export const InvoiceLanguage = LanguageCode;
export type InvoiceLanguage = z.infer<typeof InvoiceLanguage>;
export const INVOICE_LANGUAGES = InvoiceLanguage.options;

/** ISO 3166-1 alpha-2, upper case out (`de` is read as `DE`). */
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code, e.g. DE')
  .transform((v) => v.toUpperCase());
export type CountryCode = z.output<typeof CountryCode>;

/**
 * A VAT (or other tax) number as the merchant writes it; spaces, dots and dashes are dropped and
 * letters upper-cased (`de 123.456.789` -> `DE123456789`). Whether its prefix fits the country is
 * checked by the service, which knows the member states.
 */
export const VatNumber = z
  .string()
  .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9+*]{4,20}$/, 'Must be 4 to 20 letters and digits, e.g. DE123456789'));

const text = (max: number) => z.string().trim().min(1).max(max);

/** PUT /billing-profile: the whole profile (a field left out is cleared, not kept). */
export const UpdateBillingProfileBody = z.object({
  legal_name: text(200),
  address_line1: text(200),
  address_line2: text(200).nullable().optional(),
  postal_code: text(20),
  city: text(100),
  country: CountryCode,
  /** required for the reverse charge of an EU business in another member state */
  vat_number: VatNumber.nullable().optional(),
  language: InvoiceLanguage.default('en'),
});
export type UpdateBillingProfileBody = z.infer<typeof UpdateBillingProfileBody>;

/**
 * GET /billing-profile. Before the merchant saves one, every field is null but `legal_name` (the
 * merchant's registered name) and `language` (`en`): invoices issued then carry what is known.
 */
export const BillingProfile = z.object({
  legal_name: z.string().nullable(),
  address_line1: z.string().nullable(),
  address_line2: z.string().nullable(),
  postal_code: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  vat_number: z.string().nullable(),
  language: InvoiceLanguage,
  updated_at: IsoTimestamp.nullable(),
});
export type BillingProfile = z.infer<typeof BillingProfile>;
export const BillingProfileResponse = successEnvelope(BillingProfile);

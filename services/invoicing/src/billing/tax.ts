import type { TaxCase } from '@stablepay/contracts';
import { isEuMember, standardVatBp, vatPrefixOf } from './vat-rates.js';

export interface TaxDecision {
  taxCase: TaxCase;
  /** basis points: 1900 = 19 % */
  rateBp: number;
  /** the country whose VAT applies; null when none does */
  vatCountry: string | null;
}

/**
 * Which VAT an invoice for the service fee carries, by the EU rules for services supplied at a
 * distance (Directive 2006/112/EC):
 * - customer in the seller's country, or country unknown (a withdrawal before any billing profile):
 *   domestic VAT of the seller's country;
 * - customer in another member state with a VAT number (a business): reverse charge, no VAT
 *   (Art. 44 and 196);
 * - customer in another member state without one (treated as a consumer): VAT of the customer's
 *   country (Art. 58, declared through the OSS);
 * - customer outside the EU: outside the scope of EU VAT (Art. 44 / 59).
 */
export const decideTax = (
  sellerCountry: string,
  customer: { country: string | null; vatNumber: string | null },
): TaxDecision => {
  const country = customer.country;
  if (country === null || country === sellerCountry) {
    return { taxCase: 'domestic', rateBp: standardVatBp(sellerCountry), vatCountry: sellerCountry };
  }
  if (!isEuMember(country)) return { taxCase: 'outside_scope', rateBp: 0, vatCountry: null };
  if (customer.vatNumber) return { taxCase: 'reverse_charge', rateBp: 0, vatCountry: null };
  return { taxCase: 'eu_consumer', rateBp: standardVatBp(country), vatCountry: country };
};

/**
 * Why a VAT number cannot serve the reverse charge for `country`, or undefined when it fits: an EU
 * VAT number starts with its member state's prefix. Numbers of countries outside the EU are kept as
 * written (they only appear on the invoice).
 */
export const vatNumberProblem = (country: string, vatNumber: string): string | undefined => {
  if (!isEuMember(country)) return undefined;
  const prefix = vatPrefixOf(country);
  if (!vatNumber.startsWith(prefix))
    return `A VAT number of ${country} starts with ${prefix}, e.g. ${prefix}123456789`;
  if (vatNumber.length < prefix.length + 2) return 'The VAT number is too short';
  return undefined;
};

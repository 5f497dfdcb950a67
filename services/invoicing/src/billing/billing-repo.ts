import type { Knex } from 'knex';
import type { InvoiceLanguage, UpdateBillingProfileBody } from '@stablepay/contracts';
import { BILLING_PROFILES } from '../db/migrations.js';
import { date, type Row } from '../db/rows.js';

type Db = Knex | Knex.Transaction;

export interface StoredBillingProfile {
  legalName: string;
  addressLine1: string;
  addressLine2: string | null;
  postalCode: string;
  city: string;
  country: string;
  vatNumber: string | null;
  language: InvoiceLanguage;
  updatedAt: Date;
}

export const findBillingProfile = async (
  db: Db,
  merchantId: string,
): Promise<StoredBillingProfile | undefined> => {
  const r = (await db(BILLING_PROFILES).where({ merchant_id: merchantId }).first()) as Row | undefined;
  return r
    ? {
        legalName: String(r.legal_name),
        addressLine1: String(r.address_line1),
        addressLine2: r.address_line2 === null ? null : String(r.address_line2),
        postalCode: String(r.postal_code),
        city: String(r.city),
        country: String(r.country),
        vatNumber: r.vat_number === null ? null : String(r.vat_number),
        language: r.language as InvoiceLanguage,
        updatedAt: date(r.updated_at),
      }
    : undefined;
};

export const saveBillingProfile = async (
  db: Db,
  merchantId: string,
  p: UpdateBillingProfileBody,
): Promise<void> => {
  const row = {
    legal_name: p.legal_name,
    address_line1: p.address_line1,
    address_line2: p.address_line2 ?? null,
    postal_code: p.postal_code,
    city: p.city,
    country: p.country,
    vat_number: p.vat_number ?? null,
    language: p.language,
  };
  await db(BILLING_PROFILES)
    .insert({ merchant_id: merchantId, ...row })
    .onConflict('merchant_id')
    .merge({ ...row, updated_at: db.fn.now() });
};

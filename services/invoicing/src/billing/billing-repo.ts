import type { Db } from '@stablepay/platform';
import type { InvoiceLanguage, UpdateBillingProfileBody } from '@stablepay/contracts';
import { BILLING_PROFILES } from '../db/migrations.js';
import { column, firstOf, rowMapper } from '../db/rows.js';

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

const toProfile = rowMapper<StoredBillingProfile>({
  legalName: column.text,
  addressLine1: column.text,
  addressLine2: column.str,
  postalCode: column.text,
  city: column.text,
  country: column.text,
  vatNumber: column.str,
  language: column.oneOf(),
  updatedAt: column.date,
});

export const findBillingProfile = async (
  db: Db,
  merchantId: string,
): Promise<StoredBillingProfile | undefined> => {
  return firstOf(db(BILLING_PROFILES).where({ merchant_id: merchantId }), toProfile);
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

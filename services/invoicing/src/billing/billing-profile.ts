import type { BillingProfile, UpdateBillingProfileBody } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import { findBillingProfile, saveBillingProfile } from './billing-repo.js';
import { findMerchant } from '../projections/merchants-repo.js';
import type { InvoicingContext } from '../context.js';
import { vatNumberProblem } from './tax.js';

/** GET /billing-profile: the saved profile, or what is known before one is saved. */
export const getBillingProfile = async (
  ctx: InvoicingContext,
  merchantId: string,
): Promise<BillingProfile> => {
  const p = await findBillingProfile(ctx.db, merchantId);
  if (p) {
    return {
      legal_name: p.legalName,
      address_line1: p.addressLine1,
      address_line2: p.addressLine2,
      postal_code: p.postalCode,
      city: p.city,
      country: p.country,
      vat_number: p.vatNumber,
      language: p.language,
      updated_at: p.updatedAt.toISOString(),
    };
  }
  const merchant = await findMerchant(ctx.db, merchantId);
  return {
    legal_name: merchant?.name ?? null,
    address_line1: null,
    address_line2: null,
    postal_code: null,
    city: null,
    country: null,
    vat_number: null,
    language: 'en',
    updated_at: null,
  };
};

/**
 * PUT /billing-profile. Applies to invoices issued from now on; issued ones keep the customer they
 * were issued with (correct one with a rectification).
 */
export const updateBillingProfile = async (
  ctx: InvoicingContext,
  merchantId: string,
  body: UpdateBillingProfileBody,
): Promise<BillingProfile> => {
  const problem = body.vat_number ? vatNumberProblem(body.country, body.vat_number) : undefined;
  if (problem) {
    throw new AppError('unprocessable', 'The VAT number does not belong to the country', [
      fieldDetail('vat_number', problem, 'vat_number_country_mismatch'),
    ]);
  }
  await saveBillingProfile(ctx.db, merchantId, body);
  ctx.logger.info('billing profile saved', { merchantId, country: body.country });
  return getBillingProfile(ctx, merchantId);
};

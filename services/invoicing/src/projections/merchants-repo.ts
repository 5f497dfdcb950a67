import { merchantContacts } from '@stablepay/platform';
import { MERCHANTS } from '../db/migrations.js';

/**
 * merchant.created and merchant.email_confirmed, projected: the name (and e-mail) an invoice falls
 * back to before a billing profile exists, and the confirmation withdrawals wait for.
 */
export const merchants = merchantContacts({
  table: MERCHANTS,
  alsoKeep: (data) => ({ blockchain: data.blockchain }),
});

export const findMerchant = merchants.find;

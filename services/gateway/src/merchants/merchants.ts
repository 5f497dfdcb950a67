import type { MerchantInfo } from '@stablepay/contracts';
import { notFound } from '@stablepay/platform';
import type { GatewayContext } from '../gateway-context.js';
import { parseMerchantRef } from './merchant-ids.js';
import { findMerchantById, findMerchantByPublicId, type MerchantRow } from './merchants-repo.js';
import { logoUrlOf } from './settings.js';
import { findLogoMeta } from './settings-repo.js';

/** The merchant a path names by public id or internal UUID; 404 for anything else. */
export const findMerchant = async (ctx: GatewayContext, idOrPublicId: string): Promise<MerchantRow> => {
  const ref = parseMerchantRef(idOrPublicId);
  const merchant =
    ref?.kind === 'public'
      ? await findMerchantByPublicId(ctx.db, ref.publicId)
      : ref?.kind === 'internal'
        ? await findMerchantById(ctx.db, ref.id)
        : undefined;
  if (!merchant) throw notFound('Merchant');
  return merchant;
};

export const merchantInfo = async (ctx: GatewayContext, idOrPublicId: string): Promise<MerchantInfo> => {
  const merchant = await findMerchant(ctx, idOrPublicId);
  return {
    name: merchant.name,
    blockchain: merchant.blockchain as MerchantInfo['blockchain'],
    accepted_currencies: merchant.accepted_currencies.join(','),
    logo_url: logoUrlOf(merchant.public_id, await findLogoMeta(ctx.db, merchant.id)),
    accent_color: merchant.accent_color,
  };
};

import { notFound } from '@stablepay/platform';
import type { Request, Response } from 'express';
import type { GatewayContext } from '../gateway-context.js';
import { findMerchant } from './merchants.js';
import { findLogo } from './settings-repo.js';

/** Whether the client's If-None-Match names this ETag (or any, `*`); weak validators compare equal. */
const matches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  !!ifNoneMatch &&
  ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });

/**
 * GET /merchants/:id/logo: the uploaded image with the type its bytes were checked as. Never a
 * document: the API's CSP (`default-src 'none'`) and `nosniff` come with it, so a browser opening it
 * directly neither runs nor reinterprets anything. Cached briefly and revalidated by its ETag (the
 * content hash); the URL the settings give changes with the logo.
 */
export const serveMerchantLogo = async (
  ctx: GatewayContext,
  idOrPublicId: string,
  req: Request,
  res: Response,
): Promise<void> => {
  const merchant = await findMerchant(ctx, idOrPublicId);
  const logo = await findLogo(ctx.db, merchant.id);
  if (!logo) throw notFound('Logo');
  const etag = `"${logo.sha256.slice(0, 32)}"`;
  res.set({
    'cache-control': 'public, max-age=300',
    etag,
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
  });
  if (matches(req.header('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(logo.content_type).send(logo.image);
};

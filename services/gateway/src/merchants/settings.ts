import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import {
  EventTypes,
  type MerchantSettings,
  type UpdateMerchantSettingsBody,
  type UploadMerchantLogoBody,
} from '@stablepay/contracts';
import { notFound, type InternalClaims } from '@stablepay/platform';
import { findApiKeyLabel } from '../api-keys/api-keys-repo.js';
import { appendAudit, type AuditAction } from '../audit/audit-log-repo.js';
import type { GatewayContext, RequestMeta } from '../gateway-context.js';
import { inspectLogo } from './logo-image.js';
import { findMerchantById, type MerchantRow } from './merchants-repo.js';
import {
  deleteLogo,
  findLogoMeta,
  lockMerchant,
  saveSettings,
  upsertLogo,
  type LogoMeta,
  type SettingsChange,
} from './settings-repo.js';

/** Where we serve a logo; the content hash in the query changes the URL whenever the logo does. */
export const logoUrlOf = (publicId: string, logo: Pick<LogoMeta, 'sha256'> | undefined): string | null =>
  logo ? `/merchants/${publicId}/logo?v=${logo.sha256.slice(0, 16)}` : null;

const settingsView = (m: MerchantRow, logo: LogoMeta | undefined): MerchantSettings => ({
  name: m.name,
  accent_color: m.accent_color,
  logo: logo
    ? {
        url: logoUrlOf(m.public_id, logo)!,
        content_type: logo.content_type,
        width: logo.width,
        height: logo.height,
        bytes: logo.bytes,
        updated_at: logo.updated_at.toISOString(),
      }
    : null,
  network_fee_bearer: m.network_fee_bearer,
  language: m.language,
  updated_at: m.settings_updated_at?.toISOString() ?? null,
});

export const merchantSettings = async (
  ctx: GatewayContext,
  merchantId: string,
): Promise<MerchantSettings> => {
  const merchant = await findMerchantById(ctx.db, merchantId);
  if (!merchant) throw notFound('Merchant');
  return settingsView(merchant, await findLogoMeta(ctx.db, merchantId));
};

/** Who asked, as the audit log names them: the dashboard user or the API key. */
export interface SettingsActor {
  auth: InternalClaims | undefined;
  meta: RequestMeta;
}

type Details = Record<string, string | number | boolean | null>;

/** The entry names the key as the merchant knows it (its name and last four characters). */
const auditChange = async (
  trx: Knex.Transaction,
  merchantId: string,
  { auth, meta }: SettingsActor,
  [action, details]: [AuditAction, Details],
): Promise<void> => {
  const apiKeyId = auth?.caller === 'api_key' ? auth.apiKeyId : undefined;
  const key = apiKeyId ? await findApiKeyLabel(trx, merchantId, apiKeyId) : undefined;
  await appendAudit(trx, {
    action,
    merchantId,
    userId: auth?.caller === 'user' ? auth.userId : undefined,
    apiKeyId,
    ...meta,
    details: { ...details, ...(key && { apiKeyName: key.name, apiKeyLast4: key.last4 }) },
  });
};

/**
 * One change of the settings, whole: the merchant row locked, the change and a new version saved,
 * merchant.settings_updated (the settings as they now are) and the audit entry written, all in one
 * transaction.
 */
const changeSettings = async (
  ctx: GatewayContext,
  merchantId: string,
  actor: SettingsActor,
  apply: (trx: Knex.Transaction) => Promise<{ change: SettingsChange; audit?: [AuditAction, Details] }>,
): Promise<MerchantSettings> =>
  ctx.db.transaction(async (trx) => {
    if (!(await lockMerchant(trx, merchantId))) throw notFound('Merchant');
    const { change, audit } = await apply(trx);
    const merchant = await saveSettings(trx, merchantId, change);
    const logo = await findLogoMeta(trx, merchantId);
    await ctx.writeEvent(trx, EventTypes.MerchantSettingsUpdated, merchantId, {
      merchantId,
      version: merchant.settings_version,
      name: merchant.name,
      accentColor: merchant.accent_color,
      logoUrl: logoUrlOf(merchant.public_id, logo),
      networkFeeBearer: merchant.network_fee_bearer,
      language: merchant.language,
    });
    if (audit) await auditChange(trx, merchantId, actor, audit);
    return settingsView(merchant, logo);
  });

/** Name, accent colour, fee bearer and language: the fields given change, and the audit entry names them. */
export const updateMerchantSettings = (
  ctx: GatewayContext,
  merchantId: string,
  body: UpdateMerchantSettingsBody,
  actor: SettingsActor,
): Promise<MerchantSettings> =>
  changeSettings(ctx, merchantId, actor, async () => {
    const change: SettingsChange = {};
    if (body.name !== undefined) change.name = body.name;
    if (body.accent_color !== undefined) change.accent_color = body.accent_color?.toLowerCase() ?? null;
    if (body.network_fee_bearer !== undefined) change.network_fee_bearer = body.network_fee_bearer;
    if (body.language !== undefined) change.language = body.language;
    const details: Details = { fields: Object.keys(change).join(',') };
    if (change.name !== undefined) details.merchantName = change.name;
    if (change.accent_color !== undefined) details.accentColor = change.accent_color;
    if (change.network_fee_bearer !== undefined) details.networkFeeBearer = change.network_fee_bearer;
    if (change.language !== undefined) details.language = change.language;
    return { change, audit: ['merchant.settings_updated', details] };
  });

/** A new logo, checked from its bytes (type, size, dimensions) before anything is stored. */
export const uploadMerchantLogo = (
  ctx: GatewayContext,
  merchantId: string,
  body: UploadMerchantLogoBody,
  actor: SettingsActor,
): Promise<MerchantSettings> => {
  const image = Buffer.from(body.image, 'base64');
  const inspected = inspectLogo(image);
  const sha256 = createHash('sha256').update(image).digest('hex');
  return changeSettings(ctx, merchantId, actor, async (trx) => {
    await upsertLogo(trx, {
      merchant_id: merchantId,
      content_type: inspected.contentType,
      image,
      sha256,
      width: inspected.width,
      height: inspected.height,
      bytes: image.length,
    });
    const details = { contentType: inspected.contentType, width: inspected.width, height: inspected.height };
    return { change: {}, audit: ['merchant.logo_updated', { ...details, bytes: image.length }] };
  });
};

/** Removes the logo; removing none changes nothing and records nothing, but still answers the settings. */
export const removeMerchantLogo = async (
  ctx: GatewayContext,
  merchantId: string,
  actor: SettingsActor,
): Promise<MerchantSettings> => {
  if (!(await findLogoMeta(ctx.db, merchantId))) return merchantSettings(ctx, merchantId);
  return changeSettings(ctx, merchantId, actor, async (trx) => {
    const removed = await deleteLogo(trx, merchantId);
    return { change: {}, audit: removed ? ['merchant.logo_removed', {}] : undefined };
  });
};

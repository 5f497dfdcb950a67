import { ok } from '../catalogue/responses.js';
import { routeTable } from '../catalogue/route-spec.js';
import {
  MerchantIdParams,
  MerchantInfoResponse,
  MerchantLogoQuery,
  MerchantWalletResponse,
} from './schemas.js';
import {
  LOGO_BODY_LIMIT,
  LOGO_CONTENT_TYPES,
  MerchantSettingsResponse,
  UpdateMerchantSettingsBody,
  UploadMerchantLogoBody,
} from './settings.js';

const merchants = { service: 'gateway', tags: ['Merchants'], auth: 'public' } as const;
const settings = { service: 'gateway', tags: ['Merchants'], auth: 'key', extension: true } as const;

export const merchantRoutes = routeTable([
  {
    ...merchants,
    operationId: 'getMerchantWallet',
    method: 'get',
    path: '/merchants/:id/wallet',
    summary: "The merchant's receiving wallet",
    description:
      "The merchant's receiving address, chain and chain id: what the payment widget sends the customer's transfer to. 404 for an unknown merchant id.",
    request: { params: MerchantIdParams },
    responses: ok('Wallet', MerchantWalletResponse),
  },
  {
    ...merchants,
    operationId: 'getMerchantInfo',
    method: 'get',
    path: '/merchants/:id/info',
    summary: 'Public merchant information',
    description:
      "The merchant's public profile (name, chain, accepted currencies, and as extensions its logo and accent colour) for the payment widget. 404 for an unknown merchant id.",
    request: { params: MerchantIdParams },
    responses: ok('Merchant info', MerchantInfoResponse),
  },
  {
    ...merchants,
    extension: true,
    operationId: 'getMerchantLogo',
    method: 'get',
    path: '/merchants/:id/logo',
    summary: "The merchant's logo",
    description:
      "The logo the merchant uploaded, served by us with its own type, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'`, an `ETag` (answering `If-None-Match` with 304) and `Cache-Control: public, max-age=300`. 404 for an unknown merchant or one without a logo.",
    request: { params: MerchantIdParams, query: MerchantLogoQuery },
    responses: {
      200: { description: 'The image', binaryTypes: LOGO_CONTENT_TYPES },
      304: { description: 'Not modified (the ETag matched)' },
    },
  },
  {
    ...settings,
    operationId: 'getMerchantSettings',
    method: 'get',
    path: '/merchant-settings/api',
    dashboard: '/merchant-settings',
    scope: 'settings:read',
    summary: "The merchant's settings",
    description:
      "The name, accent colour and logo customers see on the checkout page, and who bears the network fee of a payment made with a signature (`null`: the deployment default), and the merchant's language (en, de, fr, es, it; `null`: English), in which every e-mail to the merchant is written.",
    responses: ok('Settings', MerchantSettingsResponse),
  },
  {
    ...settings,
    operationId: 'updateMerchantSettings',
    method: 'put',
    path: '/merchant-settings/api',
    dashboard: '/merchant-settings',
    scope: 'settings:write',
    summary: "Change the merchant's settings",
    description:
      'Changes the fields given and keeps the others; `null` clears the accent colour, the fee-bearer choice or the language. The name follows the registration rules (1 to 100 characters, no bidirectional control characters); the accent colour is `#rrggbb` that white text on it reads at 4.5:1 (WCAG AA).',
    request: { body: UpdateMerchantSettingsBody },
    responses: ok('Settings', MerchantSettingsResponse),
  },
  {
    ...settings,
    operationId: 'uploadMerchantLogo',
    method: 'put',
    path: '/merchant-settings/api/logo',
    dashboard: '/merchant-settings/logo',
    scope: 'settings:write',
    maxBodyBytes: LOGO_BODY_LIMIT,
    summary: "Upload the merchant's logo",
    description:
      'A PNG, JPEG or WebP image, base64-encoded in `image`, at most 256 KB and 1024×1024 pixels. Its type is read from its bytes and its size from its header; SVG and anything else is refused. Replaces the logo there was.',
    request: { body: UploadMerchantLogoBody },
    responses: ok('Settings', MerchantSettingsResponse),
  },
  {
    ...settings,
    operationId: 'deleteMerchantLogo',
    method: 'delete',
    path: '/merchant-settings/api/logo',
    dashboard: '/merchant-settings/logo',
    scope: 'settings:write',
    summary: "Remove the merchant's logo",
    responses: ok('Settings', MerchantSettingsResponse),
  },
]);

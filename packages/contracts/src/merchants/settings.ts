import { z } from 'zod';
import { NetworkFeeBearer } from '../gasless/schemas.js';
import { successEnvelope } from '../shared/envelope.js';
import { LanguageCode } from '../shared/language-code.js';
import { IsoTimestamp } from '../shared/scalars.js';
import { ACCENT_COLOR_RE, ACCENT_MIN_CONTRAST, accentColorReadable } from './accent-color.js';
import { MerchantName } from './schemas.js';

/** The image types a logo may be; anything else (SVG included: it can carry script) is refused. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LogoContentType = z.enum(LOGO_CONTENT_TYPES);
export type LogoContentType = z.infer<typeof LogoContentType>;

/** At most 256 KB once decoded, and at most 1024 pixels on either side. */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_MAX_SIDE = 1024;
/** The base64 text of LOGO_MAX_BYTES bytes. */
const LOGO_MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;
/** A logo's upload body (base64 of 256 KB and a little JSON) is larger than the gateway's other bodies. */
export const LOGO_BODY_LIMIT = 400 * 1024;

/** `#rrggbb` that white text on it reads at WCAG AA (4.5:1); see accent-color.ts. */
export const AccentColor = z
  .string()
  .regex(ACCENT_COLOR_RE, 'must be a colour as #rrggbb')
  .refine(accentColorReadable, {
    message: `must contrast with white text at least ${ACCENT_MIN_CONTRAST}:1 (WCAG AA); choose a darker colour`,
  });
export type AccentColor = z.infer<typeof AccentColor>;

export const MerchantLogo = z.object({
  /** the logo as we serve it, relative to the API's base URL; changes whenever the logo does */
  url: z.string(),
  content_type: LogoContentType,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  updated_at: IsoTimestamp,
});
export type MerchantLogo = z.infer<typeof MerchantLogo>;

/** GET /merchant-settings: what customers see of the merchant, and who bears a gasless payment's fees. */
export const MerchantSettings = z.object({
  name: z.string(),
  accent_color: z.string().nullable(),
  logo: MerchantLogo.nullable(),
  /** null: not chosen, the deployment's default (GASLESS_FEE_BEARER) applies */
  network_fee_bearer: NetworkFeeBearer.nullable(),
  /** the merchant's language (en, de, fr, es, it): the dashboard's, and every e-mail to the merchant; null: not chosen (English) */
  language: LanguageCode.nullable(),
  updated_at: IsoTimestamp.nullable(),
});
export type MerchantSettings = z.infer<typeof MerchantSettings>;
export const MerchantSettingsResponse = successEnvelope(MerchantSettings);
export type MerchantSettingsResponse = z.infer<typeof MerchantSettingsResponse>;

/** PUT /merchant-settings: the fields given change, the others stay; null clears a choice. */
export const UpdateMerchantSettingsBody = z
  .object({
    name: MerchantName.optional(),
    accent_color: AccentColor.nullable().optional(),
    network_fee_bearer: NetworkFeeBearer.nullable().optional(),
    language: LanguageCode.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one of name, accent_color, network_fee_bearer, language',
  });
export type UpdateMerchantSettingsBody = z.infer<typeof UpdateMerchantSettingsBody>;

/** PUT /merchant-settings/logo: the image file, base64-encoded; its type is read from its bytes. */
export const UploadMerchantLogoBody = z
  .object({
    image: z
      .string()
      .min(1)
      .max(LOGO_MAX_BASE64, `must be at most ${LOGO_MAX_BYTES / 1024} KB once decoded`)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64 (the file itself, without a data: prefix)'),
  })
  .strict();
export type UploadMerchantLogoBody = z.infer<typeof UploadMerchantLogoBody>;

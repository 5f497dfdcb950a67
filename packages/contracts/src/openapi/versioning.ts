/**
 * The API's version and its deprecations: what the gateway announces in headers and the OpenAPI
 * document declares, kept in one place so the two cannot disagree (policy: docs/api/versioning.md).
 */

/** The version every gateway response names; a breaking change only ever ships under a new one. */
export const API_VERSION = '2026-11-27';

export const VersionHeaders = {
  /** the API version that answered, on every gateway response */
  Version: 'Stablepay-Version',
  /** RFC 9745: `@<unix seconds>`, when the operation or field used was deprecated */
  Deprecation: 'Deprecation',
  /** RFC 8594: the HTTP-date after which it may stop working */
  Sunset: 'Sunset',
} as const;

/** A deprecated operation, or one field of its request body when only the field is deprecated. */
export interface Deprecation {
  operationId: string;
  /** absent when the whole operation is deprecated */
  bodyField?: string;
  /** ISO date the deprecation was announced */
  since: string;
  /** ISO date after which it may be removed, under a new API version */
  sunset: string;
  /** what to use instead */
  replacement: string;
}

export const deprecations: readonly Deprecation[] = [
  {
    operationId: 'getCctpFee',
    since: '2026-11-27',
    sunset: '2027-05-31',
    replacement: 'the Bridge Kit flow: send `bridgeKit` in POST /payments/create-public',
  },
  {
    operationId: 'createPublicPayment',
    bodyField: 'feeQuote',
    since: '2026-11-27',
    sunset: '2027-05-31',
    replacement: '`bridgeKit`',
  },
];

/** The deprecation of an operation, or of a field of its body. */
export const deprecationOf = (operationId: string): Deprecation | undefined =>
  deprecations.find((d) => d.operationId === operationId);

const dayOf = (isoDate: string): Date => new Date(`${isoDate}T00:00:00Z`);

/** The two headers' values: `Deprecation` as an RFC 9651 date (`@` + seconds), `Sunset` as an HTTP-date. */
export const deprecationHeaderValues = (d: Deprecation): { deprecation: string; sunset: string } => ({
  deprecation: `@${dayOf(d.since).getTime() / 1000}`,
  sunset: dayOf(d.sunset).toUTCString(),
});

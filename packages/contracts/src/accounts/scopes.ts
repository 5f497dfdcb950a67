import { z } from 'zod';

/**
 * What an API key may do. Each route that admits a key declares the one scope it needs in the
 * route catalogue; a key holds a set of them. `:read` scopes see, `:write` scopes change.
 */
export const ApiKeyScope = z.enum([
  'payments:read',
  'checkout:write',
  'checkout:read',
  'refunds:write',
  'refunds:read',
  'webhooks:write',
  'webhooks:read',
  'balance:read',
  'invoices:read',
  'withdrawals:read',
  'withdrawals:write',
  'ledger:read',
  'settings:read',
  'settings:write',
]);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** Every scope, in the order above. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ApiKeyScope.options;

/**
 * Scopes only ever given on purpose: a leaked key holding `withdrawals:write` can send the
 * merchant's funds away, so neither a key created without `scopes` nor a key that existed before
 * scopes gets it.
 */
export const DELIBERATE_SCOPES: readonly ApiKeyScope[] = ['withdrawals:write'];

/**
 * The set a key gets when none is asked for, and the set every key made before scopes existed was
 * given: every scope the specification's key routes need, and the read-only scopes of the
 * extensions (withdrawals, ledger), so that an integration keeps doing what it did — except
 * requesting withdrawals.
 */
export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES.filter(
  (s) => !DELIBERATE_SCOPES.includes(s),
);

/** The `details[].code` of a refusal for a missing scope. */
export const INSUFFICIENT_SCOPE = 'insufficient_scope';

/** Whether a key's scopes admit a route needing `needed`. */
export const scopeGranted = (granted: readonly string[] | undefined, needed: ApiKeyScope): boolean =>
  granted?.includes(needed) ?? false;

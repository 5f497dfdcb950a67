import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StackSecrets {
  INTERNAL_TOKEN_SECRET: string;
  JWT_SECRET: string;
  API_KEY_PEPPER: string;
  /** Encrypts the custody master seed at rest; losing it loses the merchant wallets. */
  WALLET_KEK: string;
  /** Encrypts webhook signing secrets at rest. */
  WEBHOOK_SECRET_KEK: string;
  /** Signs cross-chain fee quotes; a new one voids the quotes still out. */
  FEE_QUOTE_SECRET: string;
  /** The bearer token every service's /metrics asks for (Prometheus sends it). */
  METRICS_TOKEN: string;
}

const NAMES: Array<keyof StackSecrets> = [
  'INTERNAL_TOKEN_SECRET',
  'JWT_SECRET',
  'API_KEY_PEPPER',
  'WALLET_KEK',
  'WEBHOOK_SECRET_KEK',
  'FEE_QUOTE_SECRET',
  'METRICS_TOKEN',
];

/**
 * Secrets for a local stack: taken from the environment when set, otherwise generated once and kept
 * in `<varDir>/secrets.json` (mode 0600) so tokens and API keys stay valid across restarts.
 */
export const loadOrCreateSecrets = (varDir: string, env = process.env): StackSecrets => {
  const file = join(varDir, 'secrets.json');
  const stored: Partial<StackSecrets> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<StackSecrets>)
    : {};
  let changed = false;
  const out = {} as StackSecrets;
  for (const name of NAMES) {
    const fromEnv = env[name];
    if (fromEnv) out[name] = fromEnv;
    else {
      if (!stored[name]) {
        stored[name] = randomBytes(32).toString('base64url');
        changed = true;
      }
      out[name] = stored[name];
    }
  }
  if (changed) writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  return out;
};

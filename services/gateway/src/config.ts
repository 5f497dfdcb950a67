import {
  chainExplorerUrl,
  publishedDisplayName,
  type BlockchainName,
  type ChainConfig,
  type PublicChain,
  type PublicChains,
} from '@stablepay/contracts';
import { z } from 'zod';
import {
  ConfigError,
  chainConfigShape,
  chainRegistryFromEnv,
  envInt,
  envSecret,
  loadConfig,
  retiredTrustProxySchema,
  serviceConfigShape,
  trustedProxiesSchema,
} from '@stablepay/platform';

const idPrefix = z
  .string()
  .regex(/^[a-z][a-z0-9]{0,15}$/, 'must be 1-16 lower-case letters or digits, starting with a letter');
const serviceUrl = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);
const perMinute = (fallback: number) => envInt.pipe(z.number().int().min(1)).default(fallback);

const originList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o.length > 0),
  )
  .pipe(z.array(z.url()));

export const gatewayConfigSchema = z.object({
  ...serviceConfigShape({ port: 8080, schema: 'gateway' }),
  ...chainConfigShape,
  /** Signs dashboard access tokens (HS256). */
  JWT_SECRET: envSecret(32),
  /**
   * During a rotation only: the other value of JWT_SECRET, accepted when verifying access tokens and
   * never used to sign (docs/operations.md, Rotating secrets).
   */
  JWT_SECRET_PREVIOUS: envSecret(32).optional(),
  /**
   * HMAC key for API key digests, idempotency records, recovery codes and the key sealing TOTP
   * secrets. Rotate it with API_KEY_PEPPER_PREVIOUS (docs/operations.md, Rotating secrets).
   */
  API_KEY_PEPPER: envSecret(32),
  /**
   * During a rotation only: the previous API_KEY_PEPPER. An API key found only under it is moved
   * to the current pepper on use; nothing new is made with it.
   */
  API_KEY_PEPPER_PREVIOUS: envSecret(32).optional(),
  MERCHANT_ID_PREFIX: idPrefix.default('sp'),
  API_KEY_PREFIX: idPrefix.default('sk'),
  ENVIRONMENT: z.enum(['live', 'test']).default('live'),
  ACCESS_TOKEN_TTL_SECONDS: envInt.pipe(z.number().int().min(30).max(86_400)).default(900),
  REFRESH_TOKEN_TTL_SECONDS: envInt.pipe(z.number().int().min(300)).default(30 * 86_400),
  /**
   * How recent a password sign-in must be for a step-up route (changing the withdrawal address book) when
   * two-factor sign-in is off; older sessions are asked to sign in again.
   */
  STEP_UP_MAX_AGE_SECONDS: envInt.pipe(z.number().int().min(30).max(86_400)).default(600),
  /** log2 of scrypt's N for new password hashes (15 in production; tests lower it). */
  SCRYPT_COST: envInt.pipe(z.number().int().min(4).max(20)).default(15),
  PAYMENTS_URL: serviceUrl(8101),
  CHAIN_WATCHER_URL: serviceUrl(8102),
  REFUNDS_URL: serviceUrl(8103),
  INVOICING_URL: serviceUrl(8104),
  NOTIFIER_URL: serviceUrl(8105),
  UPSTREAM_TIMEOUT_MS: envInt.pipe(z.number().int().min(100)).default(15_000),
  RATE_LIMIT_PUBLIC_PER_MINUTE: perMinute(120),
  RATE_LIMIT_KEY_PER_MINUTE: perMinute(600),
  /** Sign-in, registration and e-mail confirmation requests per client IP. */
  RATE_LIMIT_AUTH_PER_MINUTE: perMinute(20),
  /** Requests with an API key that is not valid, per client IP, before that IP's key requests get 429. */
  RATE_LIMIT_FAILED_KEYS_PER_MINUTE: perMinute(20),
  /** Failed sign-ins of one account (from any address) before it is locked for the rest of the window. */
  SIGNIN_LOCKOUT_FAILURES: envInt.pipe(z.number().int().min(1)).default(10),
  /** How long the failures that lock an account are counted, and so how long a lock-out lasts at most. */
  SIGNIN_LOCKOUT_WINDOW_SECONDS: envInt.pipe(z.number().int().min(60).max(86_400)).default(900),
  /**
   * Redis (`redis://host:6379/0`) where every rate limit, lock-out and failure count is kept, so
   * that they hold across replicas; without it each replica counts in its own memory.
   */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Prefix of the gateway's keys in Redis (deployments sharing one Redis each set their own). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:._-]{1,64}$/)
    .default('stablepay:gateway:'),
  /**
   * Addresses or CIDRs of the proxies in front of the gateway, whose X-Forwarded-For is believed
   * (`10.0.0.0/8,127.0.0.1`, or loopback/linklocal/uniquelocal). Unset (false), nobody is: the
   * client address is the TCP peer's.
   */
  TRUSTED_PROXIES: trustedProxiesSchema,
  /** Refused at start: replaced by TRUSTED_PROXIES (a hop count let any client name its own address). */
  TRUST_PROXY: retiredTrustProxySchema,
  /** Browser origins of the merchant dashboard, allowed by CORS on /auth/* and jwt routes. */
  CORS_DASHBOARD_ORIGINS: originList,
  /**
   * Where the merchant dashboard is served: e-mailed links (confirming the address, signing in) point
   * there. Defaults to the first of CORS_DASHBOARD_ORIGINS, else the dashboard's development server.
   */
  DASHBOARD_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Least time between two confirmation e-mails to one account (at most five an hour either way). */
  EMAIL_CONFIRMATION_RESEND_SECONDS: envInt.pipe(z.number().int().min(0).max(3600)).default(60),
  /**
   * RPC endpoints that GET /chains publishes to browsers, by chain name (JSON, e.g.
   * `{"BASE":["https://mainnet.base.org"]}`). A chain left out publishes the URLs of the preset or of
   * CHAIN_REGISTRY, never those of CHAIN_RPC_URLS_<NAME>, which may carry a provider's key.
   */
  PUBLIC_RPC_URLS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"BASE":["https://…"]}' });
        return z.NEVER;
      }
    })
    .pipe(z.partialRecord(z.string(), z.array(z.url({ protocol: /^https?$/ })).min(1))),
  /** The attestation API that paying clients poll in the bridge-kit flow (published by GET /chains). */
  CCTP_ATTESTATION_URL: z.url().optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema> & {
  /**
   * Blockchains merchants may register on: the chains of this deployment's registry, which the
   * chain-watcher serves too (a merchant elsewhere would never get a wallet).
   */
  supportedBlockchains: BlockchainName[];
  /** What GET /chains answers: fixed by configuration, so computed once. */
  publicChains: PublicChains;
  /** DASHBOARD_URL or its default, without a trailing slash. */
  dashboardUrl: string;
};

/** The optional facts GET /chains adds to a chain: the name people read, its explorer, its block time. */
const shownFacts = (chain: ChainConfig): Pick<PublicChain, 'displayName' | 'explorerUrl' | 'blockTimeMs'> => {
  const explorerUrl = chainExplorerUrl(chain);
  return {
    displayName: publishedDisplayName(chain),
    ...(explorerUrl ? { explorerUrl } : {}),
    ...(chain.blockTimeMs ? { blockTimeMs: chain.blockTimeMs } : {}),
  };
};

export const loadGatewayConfig = (env: Record<string, string | undefined> = process.env): GatewayConfig => {
  const config = loadConfig(gatewayConfigSchema, env);
  const registry = chainRegistryFromEnv(config);
  // The registry without the per-chain RPC overrides: those are the deployment's private endpoints.
  const published = chainRegistryFromEnv({
    CHAIN_NETWORK: config.CHAIN_NETWORK,
    CHAIN_REGISTRY: config.CHAIN_REGISTRY,
  });
  const unknown = Object.keys(config.PUBLIC_RPC_URLS).filter(
    (name) => !registry.chains.some((chain) => chain.name === name),
  );
  if (unknown.length > 0)
    throw new ConfigError(unknown.map((name) => `PUBLIC_RPC_URLS: chain ${name} is not in the registry`));
  return {
    ...config,
    dashboardUrl: (
      config.DASHBOARD_URL ??
      config.CORS_DASHBOARD_ORIGINS[0] ??
      'http://localhost:5173'
    ).replace(/\/+$/, ''),
    supportedBlockchains: registry.chains.map((chain) => chain.name),
    publicChains: {
      network: registry.network,
      attestationUrl: config.CCTP_ATTESTATION_URL ?? null,
      chains: registry.chains.map((chain) => ({
        ...shownFacts(chain),
        name: chain.name,
        chainId: chain.chainId,
        cctpDomain: chain.cctpDomain,
        confirmations: chain.confirmations,
        rpcUrls:
          config.PUBLIC_RPC_URLS[chain.name] ??
          published.chains.find((c) => c.name === chain.name)?.rpcUrls ??
          [],
        tokens: chain.tokens,
        cctp: chain.cctp ?? null,
      })),
    },
  };
};

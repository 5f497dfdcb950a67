import { z } from 'zod';
import { BlockchainName, type ChainRegistry } from '@stablepay/contracts';
import {
  ConfigError,
  chainConfigShape,
  chainRegistryFromEnv,
  envInt,
  loadConfig,
  serviceConfigShape,
} from '@stablepay/platform';
import { parseRelayerKeys } from './custody/relayer-keys.js';
import { NATIVE_SYMBOLS } from './cctp/native-prices.js';

const millis = (min: number, fallback: number) => envInt.pipe(z.number().int().min(min)).default(fallback);

/**
 * The key-encryption key of the master seed: exactly 32 bytes, as 64 hex digits (0x optional) or
 * base64. Anything else is refused, so a truncated or mistyped key never silently weakens AES-256.
 */
export const parseWalletKek = (text: string): Buffer | undefined => {
  const trimmed = text.trim();
  const hex = trimmed.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9+/_-]{42,43}={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(
      trimmed,
      trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64',
    );
    if (bytes.length === 32) return bytes;
  }
  return undefined;
};

const walletKek = z.string().transform((text, ctx) => {
  const key = parseWalletKek(text);
  if (!key) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64' });
    return z.NEVER;
  }
  return key;
});

const relayerKeys = z.string().transform((text, ctx) => {
  const parsed = parseRelayerKeys(text);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/** A JSON object variable, checked against `shape` after parsing. */
const jsonVariable = <T extends z.ZodType>(shape: T, example: string) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a JSON object, e.g. ${example}` });
        return z.NEVER;
      }
    })
    .pipe(shape);

const gasUnits = z.number().int().min(21_000).max(30_000_000);

const gasUnitsByChain = jsonVariable(z.partialRecord(BlockchainName, gasUnits), '{"ARB":400000}');

const nativeUsdPrices = jsonVariable(
  z.partialRecord(
    z.enum(NATIVE_SYMBOLS as [string, ...string[]]),
    z
      .string()
      .regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal string of at most 18 fraction digits')
      .refine((price) => /[1-9]/.test(price), 'must be greater than 0'),
  ),
  '{"ETH":"3150.25","POL":"0.21"}',
);

/**
 * A wei amount as decimal digits (JSON and environment variables cannot hold uint256 as numbers).
 * Kept a string in the configuration, which must stay JSON-serialisable; read with BigInt where used.
 */
const weiAmount = z.string().regex(/^\d{1,78}$/, 'must be a whole number of wei in decimal digits');

const weiByChain = jsonVariable(z.partialRecord(BlockchainName, weiAmount), '{"ETH":"200000000000000000"}');

export const chainWatcherConfigSchema = z.object({
  ...serviceConfigShape({ port: 8102, schema: 'chain_watcher' }),
  ...chainConfigShape,
  /** Encrypts the master seed at rest (AES-256-GCM); never logged, never stored. */
  WALLET_KEK: walletKek,
  /**
   * The KEK being rotated away from, set only during a rotation: a master seed still sealed under it
   * is re-sealed under WALLET_KEK at start. Drop it once the chain-watcher has started with both.
   */
  WALLET_KEK_PREVIOUS: walletKek.optional(),
  /** Pause between verification passes when nothing is due. */
  VERIFY_POLL_MS: millis(10, 1_000),
  /** Payments verified per claim; each pass takes at most this many rows. */
  VERIFY_BATCH_SIZE: envInt.pipe(z.number().int().min(1).max(1_000)).default(50),
  /** Verifications in flight at once per replica. */
  VERIFY_CONCURRENCY: envInt.pipe(z.number().int().min(1).max(200)).default(16),
  /** Longest wait between two checks of one payment (RPC outages, transactions not yet visible). */
  VERIFY_MAX_BACKOFF_MS: millis(10, 60_000),
  /**
   * How long one replica holds a payment's (or a top-up's) verification without renewing it: renewed
   * every third of this while its batch runs, so a replica that dies leaves them to another within this.
   */
  VERIFY_LEASE_MS: envInt.pipe(z.number().int().min(500)).default(6_000),
  /** A transaction still unknown this long after the payment was created is rejected `tx_not_found`. */
  TX_NOT_FOUND_AFTER_MS: millis(0, 30 * 60_000),
  RPC_TIMEOUT_MS: millis(100, 8_000),
  /**
   * How long the relayer balances and chain heads shown at /metrics are reused before they are read
   * from the chains again, so that frequent scrapes (or many Prometheus servers) never load the RPC.
   */
  CHAIN_METRICS_CACHE_MS: millis(0, 30_000),
  /**
   * Circle's attestation API (or one with its paths): Iris in production
   * (https://iris-api.circle.com), the sandbox on testnets, the devnet's own service locally. Without
   * it, bridge-kit mints are found by the hash the client gives or on the chain.
   */
  CCTP_ATTESTATION_URL: z.url().optional(),
  CCTP_ATTESTATION_TIMEOUT_MS: millis(100, 10_000),
  /** Pause between looks at a cross-chain payment that is waiting; grows with back-off. */
  CCTP_POLL_MS: millis(10, 2_000),
  CCTP_MAX_BACKOFF_MS: millis(100, 60_000),
  /** A burn not minted to the merchant within this time after the payment was created fails. */
  CCTP_MINT_TIMEOUT_MS: millis(1_000, 2 * 3600_000),
  /**
   * Relayer flow: a verified burn whose message the attestation API has not signed this long after
   * the burn was verified fails `attestation_timeout`. Circle's standard transfers take up to about
   * 20 minutes from Ethereum, so the default leaves a wide margin.
   */
  CCTP_ATTESTATION_WAIT_MS: millis(1_000, 2 * 3600_000),
  /**
   * How long one replica holds a cross-chain payment without renewing it: the replica renews it every
   * third of this while it works, so a replica that dies leaves its payments to another within this.
   */
  CCTP_LEASE_MS: envInt.pipe(z.number().int().min(500)).default(6_000),
  /**
   * How long one replica holds a gasless payment without renewing it: renewed every third of this
   * while it works, so a replica that dies leaves its payments to another within this.
   */
  GASLESS_LEASE_MS: envInt.pipe(z.number().int().min(500)).default(6_000),
  SCAN_INTERVAL_MS: millis(10, 5_000),
  SCAN_MAX_BLOCKS: envInt.pipe(z.number().int().min(1).max(100_000)).default(2_000),
  /**
   * How often the ledger of every merchant wallet is compared with balanceOf on its chain. At most a
   * minute, so that a movement nobody recorded shows as a discrepancy within one.
   */
  RECONCILE_INTERVAL_MS: envInt.pipe(z.number().int().min(1_000).max(60_000)).default(30_000),
  /** A pending verification nobody has looked at for this long is made due again at once. */
  RECOVERY_AFTER_MS: millis(100, 10 * 60_000),
  /**
   * Per-chain relayer keys as JSON, e.g. {"BASE":"0x..."}; a chain left out gets a key derived from
   * the master seed. Secret: parsed into a value that neither logs nor serialises.
   */
  RELAYER_PRIVATE_KEYS: relayerKeys.optional(),
  /** Sender pace when idle, and how often a broadcast transaction is looked at. */
  TRANSFER_POLL_MS: millis(10, 1_000),
  TRANSFER_BATCH_SIZE: envInt.pipe(z.number().int().min(1).max(1_000)).default(20),
  TRANSFER_CONCURRENCY: envInt.pipe(z.number().int().min(1).max(100)).default(8),
  /** Longest wait between two looks at a transfer whose chain is failing. */
  TRANSFER_MAX_BACKOFF_MS: millis(10, 60_000),
  /**
   * How long one replica holds an outgoing transfer without renewing it: renewed every third of this
   * while it works, so a replica that dies leaves its transfers to another within this.
   */
  TRANSFER_LEASE_MS: envInt.pipe(z.number().int().min(500)).default(6_000),
  /** A broadcast transaction not mined after this long is replaced with the same nonce and higher fees. */
  TRANSFER_STUCK_AFTER_MS: millis(100, 3 * 60_000),
  /** validBefore of the EIP-3009 authorization: this long after it is first signed. */
  TRANSFER_AUTHORIZATION_TTL_MS: millis(60_000, 24 * 3600_000),
  /**
   * A transfer nothing was signed for yet fails `chain_unavailable` once its chain's RPC has failed
   * this long; until then, and always once something was signed, the sender keeps trying.
   */
  TRANSFER_CHAIN_UNAVAILABLE_AFTER_MS: millis(100, 30 * 60_000),
  /**
   * Gas of a CCTP mint (receiveMessage) plus the USDC transfer to the merchant, which cross-chain fee
   * quotes price. A configured estimate, not eth_estimateGas: the mint cannot be estimated before
   * its attestation exists. The default covers Circle's V2 receiveMessage with a margin.
   */
  CCTP_FEE_GAS_UNITS: envInt.pipe(gasUnits).default(265_000),
  /** Per-chain overrides of CCTP_FEE_GAS_UNITS as JSON, e.g. {"ARB":400000}. */
  CCTP_FEE_GAS_UNITS_BY_CHAIN: gasUnitsByChain.optional(),
  /**
   * USD per native coin (ETH, POL, AVAX, S, SEI, MON, XDC, HYPE, PLUME, USDC) as JSON, e.g.
   * {"ETH":"3150.25"}: the fixed price source of fee quotes. A coin left out keeps a built-in round
   * figure meant for the devnet.
   */
  NATIVE_TOKEN_USD_PRICES: nativeUsdPrices.optional(),
  /**
   * What the relay may spend on gas submitting one merchant's gasless payments on one chain per UTC
   * day, in wei of the chain's native coin (spent and reserved for submissions not settled yet). The
   * check refuses new authorizations with 429 relay_gas_budget_spent once it is used up.
   */
  GASLESS_DAILY_GAS_BUDGET_WEI: weiAmount.default('50000000000000000'),
  /** Per-chain overrides of GASLESS_DAILY_GAS_BUDGET_WEI as JSON, e.g. {"ETH":"200000000000000000"}. */
  GASLESS_DAILY_GAS_BUDGET_WEI_BY_CHAIN: weiByChain.optional(),
  /**
   * The relay accepts a gasless payment only while its native balance covers this many submissions at
   * today's worst-case fee: a relay that could send one more but not its replacement is low on gas.
   */
  GASLESS_RELAY_GAS_MARGIN: envInt.pipe(z.number().int().min(1).max(1_000)).default(5),
  /** Retry-After of the 503 a relay low on gas answers, in seconds. */
  GASLESS_LOW_GAS_RETRY_AFTER_S: envInt.pipe(z.number().int().min(1).max(86_400)).default(300),
  /** Fault injection for the crash tests; read only when NODE_ENV=test. */
  TRANSFER_CRASH_POINT: z.enum(['after_sign', 'after_broadcast']).optional(),
  /**
   * Fault injection for the relayer-flow crash tests; read only when NODE_ENV=test. The relay's mint
   * or transfer to the merchant signed and stored but not broadcast, or broadcast but not recorded.
   */
  CCTP_CRASH_POINT: z
    .enum(['mint_signed', 'mint_broadcast', 'transfer_signed', 'transfer_broadcast'])
    .optional(),
  /**
   * Fault injection for the gasless crash tests; read only when NODE_ENV=test: the relay's submission
   * of a customer's authorization signed and stored but not broadcast, or broadcast but not recorded.
   */
  GASLESS_CRASH_POINT: z
    .enum(['submission_signed', 'submission_broadcast', 'burn_broadcast', 'mint_broadcast'])
    .optional(),
});

export type ChainWatcherEnv = z.infer<typeof chainWatcherConfigSchema>;

/** The validated variables plus the chain registry they resolve to. */
export type ChainWatcherConfig = ChainWatcherEnv & { registry: ChainRegistry };

export type TransferCrashPoint = NonNullable<ChainWatcherEnv['TRANSFER_CRASH_POINT']>;
export type CctpCrashPoint = NonNullable<ChainWatcherEnv['CCTP_CRASH_POINT']>;
export type GaslessCrashPoint = NonNullable<ChainWatcherEnv['GASLESS_CRASH_POINT']>;

/** Relayer keys for chains the registry does not serve are a mistake in the deployment, not noise. */
const checkRelayerChains = (env: ChainWatcherEnv, registry: ChainRegistry): void => {
  const problems = (env.RELAYER_PRIVATE_KEYS?.chains() ?? [])
    .filter((name) => !registry.chains.some((chain) => chain.name === name))
    .map((name) => `RELAYER_PRIVATE_KEYS: chain ${name} is not in the ${registry.network} chain registry`);
  if (problems.length > 0) throw new ConfigError(problems);
};

/**
 * The validated variables and the chain registry they resolve to (the platform's one reading of
 * CHAIN_NETWORK, CHAIN_REGISTRY and CHAIN_RPC_URLS_<NAME>); every problem names its variable.
 */
export const loadChainWatcherConfig = (
  env: Record<string, string | undefined> = process.env,
): ChainWatcherConfig => {
  const parsed = loadConfig(chainWatcherConfigSchema, env);
  // A crash point outside tests would be a way to kill production by configuration: never read.
  if (parsed.NODE_ENV !== 'test') {
    parsed.TRANSFER_CRASH_POINT = undefined;
    parsed.CCTP_CRASH_POINT = undefined;
    parsed.GASLESS_CRASH_POINT = undefined;
  }
  const registry = chainRegistryFromEnv(parsed);
  checkRelayerChains(parsed, registry);
  return { ...parsed, registry };
};

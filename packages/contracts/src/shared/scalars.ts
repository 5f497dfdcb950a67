import { z } from 'zod';

/**
 * Blockchain names used in `source_chain`, `blockchain` and `destinationChain`. The spec names ETH,
 * BASE, MATIC, ARB as examples; the rest are the other CCTP v2 EVM chains (ARC: Circle's Arc, a
 * testnet so far). Which ones a deployment actually serves is decided by its chain registry
 * configuration, not by this list. New names go at the end: the devnet derives account indexes
 * from the position of a name.
 */
export const BlockchainName = z.enum([
  'ETH',
  'BASE',
  'MATIC',
  'ARB',
  'AVAX',
  'OP',
  'UNI',
  'LINEA',
  'SONIC',
  'WORLD',
  'SEI',
  'CODEX',
  'MONAD',
  'XDC',
  'HYPEREVM',
  'INK',
  'PLUME',
  'ARC',
]);
export type BlockchainName = z.infer<typeof BlockchainName>;
export const BLOCKCHAIN_NAMES = BlockchainName.options;

export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Any 8-4-4-4-12 hex UUID (version bits are not checked: ids come from our own databases). */
export const Uuid = z.string().regex(new RegExp(`^${UUID_PATTERN}$`), 'Invalid UUID');
export type Uuid = z.infer<typeof Uuid>;

const UUID_ANYWHERE = new RegExp(UUID_PATTERN, 'g');

/**
 * The one spelling of every UUID in a text: lower case (RFC 9562 §4 asks for lower case output, and
 * PostgreSQL prints uuids so). An id that reaches a domain function in another spelling names the
 * same row in a uuid column, yet differs as text wherever the id is bound into something (the
 * associated data of a sealed secret, a cache key, a URL): so ids are canonicalised once, where a
 * request's path parameters are read. Works inside composite ids too (`cs_live_<uuid>`).
 */
export const canonicalUuids = (text: string): string =>
  text.replace(UUID_ANYWHERE, (uuid) => uuid.toLowerCase());

export const TxHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'Invalid transaction hash');

export const EvmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Invalid EVM address');
export type EvmAddress = z.infer<typeof EvmAddress>;

/** A wallet's EIP-712 signature (r, s, v: 65 bytes) in hex. */
export const EvmSignature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature in hex');

/** The service's HMAC-SHA256 over a quote's other fields, in hex: proof that the service issued it. */
export const QuoteSignature = z.string().regex(/^[0-9a-f]{64}$/i, 'Invalid quote signature');

/** ISO 8601 timestamp; responses always use UTC with `Z` (Date#toISOString). */
export const IsoTimestamp = z.iso.datetime({ offset: true });

/** ISO date (`2025-01-31`) or ISO datetime, as accepted by list filters. */
export const IsoDateOrDateTime = z.union([z.iso.date(), IsoTimestamp]);

/** Public merchant id: `<prefix>_live_<uuid>` (or `_test_` for test-mode merchants). */
export const MERCHANT_PUBLIC_ID_RE = new RegExp(`^[a-z][a-z0-9]{0,15}_(live|test)_${UUID_PATTERN}$`);
export const MerchantPublicId = z.string().regex(MERCHANT_PUBLIC_ID_RE, 'Invalid merchant id');

export const ChainId = z.number().int().positive();

/** A block's height on its chain. */
export const BlockNumber = z.number().int().nonnegative();

/** Arbitrary JSON object supplied by the merchant. */
export const JsonObject = z.record(z.string(), z.unknown());

import { createSecretKey, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { decimalToBaseUnits, type ChainRegistry } from '@stablepay/contracts';
import { eventWriter } from '@stablepay/platform';
import { chainWatcherFeeInputs, type FeeInputsSource } from './fee-quote/fee-inputs.js';
import type { PaymentsConfig } from './config.js';
import type { FeePolicy } from './fee-quote/arithmetic.js';

/** How cross-chain fee quotes are priced, signed and limited in time. */
export interface FeeQuoteSettings extends FeePolicy {
  /** HMAC key of quote signatures (a KeyObject: it never shows in a log or a dump) */
  key: KeyObject;
  validForSeconds: number;
  /** where the destination chain's gas price and gas-coin price come from */
  inputs: FeeInputsSource;
}

/** Everything the domain operations need, passed explicitly. */
export interface PaymentsContext {
  db: Knex;
  /** The chains payments may come from; a chain id's name is read from here. */
  chains: ChainRegistry;
  /** The hosted checkout page; sessions link to `${checkoutUrl}?session=<id>`. */
  checkoutUrl: string;
  /** `cs_live_` or `cs_test_` */
  sessionIdPrefix: string;
  /** When false, return and cancel URLs must be https. */
  allowInsecureUrls: boolean;
  feeQuotes: FeeQuoteSettings;
  now: () => Date;
  /** Called after a transaction that wrote outbox events has committed (wakes the relay). */
  eventsCommitted: () => void;
}

export const feeQuoteSettings = (config: PaymentsConfig, inputs: FeeInputsSource): FeeQuoteSettings => ({
  key: createSecretKey(Buffer.from(config.FEE_QUOTE_SECRET, 'utf8')),
  validForSeconds: config.FEE_QUOTE_VALID_SECONDS,
  bufferBps: decimalToBaseUnits(config.FEE_QUOTE_GAS_BUFFER_PERCENT, 2),
  minGasFee: decimalToBaseUnits(config.FEE_QUOTE_MIN_GAS_FEE),
  attestationFeeUnits: decimalToBaseUnits(config.FEE_QUOTE_ATTESTATION_FEE_BPS, 3),
  inputs,
});

export const createPaymentsContext = (
  config: PaymentsConfig,
  db: Knex,
  eventsCommitted: () => void,
  feeInputs: FeeInputsSource = chainWatcherFeeInputs(config),
): PaymentsContext => ({
  db,
  chains: config.chainRegistry,
  checkoutUrl: config.CHECKOUT_URL,
  sessionIdPrefix: `cs_${config.ENVIRONMENT}_`,
  allowInsecureUrls: config.ALLOW_INSECURE_URLS,
  feeQuotes: feeQuoteSettings(config, feeInputs),
  now: () => new Date(),
  eventsCommitted,
});

/** Writes the service's integration events to the outbox, in the caller's transaction. */
export const writeEvent = eventWriter('payments');

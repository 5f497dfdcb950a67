import { createSecretKey, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import { decimalToBaseUnits, type ChainRegistry, type NetworkFeeBearer } from '@stablepay/contracts';
import { afterCommit, defineStateMachine, wakingEventWriter, type EventWriter } from '@stablepay/platform';
import { MerchantCache } from './merchants/merchant-cache.js';
import { SESSION_MACHINE, type SessionMachine } from './checkout/session-machine.js';
import { chainWatcherFeeInputs, type FeeInputsSource } from './fee-quote/fee-inputs.js';
import type { PaymentsConfig } from './config.js';
import type { FeePolicy } from './fee-quote/arithmetic.js';
import { chainWatcherRelay, type GaslessRelay } from './gasless/relay-client.js';
import { PAYMENT_MACHINE, type PaymentMachine } from './payments/payment-machine.js';

/** How cross-chain fee quotes are priced, signed and limited in time. */
export interface FeeQuoteSettings extends FeePolicy {
  /** HMAC key of quote signatures (a KeyObject: it never shows in a log or a dump) */
  key: KeyObject;
  validForSeconds: number;
  /** where the destination chain's gas price and gas-coin price come from */
  inputs: FeeInputsSource;
}

/** How gasless payments are priced and limited, and the relay they go through. */
export interface GaslessSettings {
  relay: GaslessRelay;
  /** gas of the relay's transferWithAuthorization, and of its CCTP burn after a cross-chain one */
  feeBearer: NetworkFeeBearer;
  /** new gasless payments per payer address per minute */
  payerLimitPerMinute: number;
}

/** What the service is configured with. */
export interface PaymentsSettings {
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
  gasless: GaslessSettings;
  now: () => Date;
}

/** How the service records what happens: state machines and events, and the relay woken on commit. */
export interface PaymentsRecording {
  /** Writes an integration event in the caller's transaction; the relay wakes once it commits. */
  writeEvent: EventWriter;
  /** For a statement that wrote its outbox row itself: the relay wakes once `db`'s work commits. */
  outboxWritten: (db: Knex | Knex.Transaction) => void;
  payments: PaymentMachine;
  sessions: SessionMachine;
}

/** What a replica remembers between requests; never trusted without a check against the database. */
export interface PaymentsMemory {
  /** Merchants as last read for payment reports, each with its row's version. */
  merchantCache: MerchantCache;
}

/** Everything the domain operations need, passed explicitly. */
export type PaymentsContext = PaymentsSettings & PaymentsRecording & PaymentsMemory;

/** The recording half of the context; `wake` is the outbox relay's (`ServiceKit.eventsCommitted`). */
export const paymentsRecording = (wake: () => void): PaymentsRecording => {
  const writeEvent = wakingEventWriter('payments', wake);
  return {
    writeEvent,
    outboxWritten: (db) => afterCommit(db, wake),
    payments: defineStateMachine({ ...PAYMENT_MACHINE, writeEvent }),
    sessions: defineStateMachine({ ...SESSION_MACHINE, writeEvent }),
  };
};

export const feeQuoteSettings = (config: PaymentsConfig, inputs: FeeInputsSource): FeeQuoteSettings => ({
  key: createSecretKey(Buffer.from(config.FEE_QUOTE_SECRET, 'utf8')),
  validForSeconds: config.FEE_QUOTE_VALID_SECONDS,
  bufferBps: decimalToBaseUnits(config.FEE_QUOTE_GAS_BUFFER_PERCENT, 2),
  minGasFee: decimalToBaseUnits(config.FEE_QUOTE_MIN_GAS_FEE),
  attestationFeeUnits: decimalToBaseUnits(config.FEE_QUOTE_ATTESTATION_FEE_BPS, 3),
  inputs,
});

export const gaslessSettings = (config: PaymentsConfig, relay: GaslessRelay): GaslessSettings => ({
  relay,
  feeBearer: config.GASLESS_FEE_BEARER,
  payerLimitPerMinute: config.GASLESS_PAYER_LIMIT_PER_MINUTE,
});

export const createPaymentsContext = (
  config: PaymentsConfig,
  db: Knex,
  eventsCommitted: () => void,
  feeInputs: FeeInputsSource = chainWatcherFeeInputs(config),
  relay: GaslessRelay = chainWatcherRelay(config),
): PaymentsContext => ({
  db,
  chains: config.chainRegistry,
  checkoutUrl: config.CHECKOUT_URL,
  sessionIdPrefix: `cs_${config.ENVIRONMENT}_`,
  allowInsecureUrls: config.ALLOW_INSECURE_URLS,
  feeQuotes: feeQuoteSettings(config, feeInputs),
  gasless: gaslessSettings(config, relay),
  now: () => new Date(),
  ...paymentsRecording(eventsCommitted),
  merchantCache: new MerchantCache(),
});

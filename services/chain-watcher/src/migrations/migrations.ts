import { inboxMigration, outboxMigration, type Migration } from '@stablepay/platform';
import { gaslessMigration } from '../gasless/migration.js';
import { ledgerBackfillMigration } from '../ledger/backfill.js';
import { ledgerMigration } from '../ledger/migration.js';
import { cctpMigration, cctpRelayerMigration } from './cctp-migrations.js';
import { correlationMigration } from './correlation-migration.js';
import { custodyMigration } from './custody-migration.js';
import { gaslessCrossChainMigration } from './gasless-cross-chain-migration.js';
import { gaslessGasPerChainMigration } from './gasless-gas-per-chain-migration.js';
import { topUpVerificationsMigration } from './top-ups-migration.js';
import { transfersMigration } from './transfers-migration.js';
import { scannerMigration, verificationMigration } from './verification-migrations.js';

/*
 * The names are what knex records per database: never rename one, never change what an applied
 * migration does; a change of schema is a new migration at the end.
 */

/** In order; each runs once per database. */
export const chainWatcherMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  custodyMigration,
  verificationMigration,
  scannerMigration,
  transfersMigration,
  cctpMigration,
  cctpRelayerMigration,
  correlationMigration,
  ledgerMigration,
  ledgerBackfillMigration,
  topUpVerificationsMigration,
  gaslessMigration,
  gaslessCrossChainMigration,
  gaslessGasPerChainMigration,
];

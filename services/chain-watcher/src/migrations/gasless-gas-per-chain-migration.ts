import type { Migration } from '@stablepay/platform';
import { units } from './columns.js';
import { GASLESS_PAYMENTS } from './tables.js';

/**
 * The relay's gas of a gasless payment per chain, each in wei of that chain's own native coin (ETH,
 * POL and AVAX do not add up): `gas_spent_wei` keeps what the relay spent on the customer's chain
 * (`chain_id`: the submission and, across chains, the approval and the burn), and
 * `destination_gas_spent_wei` what it spent on the merchant's chain (`destination_chain_id`: the
 * mint, and the transfer that collects a merchant-borne network fee there). A cross-chain row
 * settled before this migration holds both chains' sum in `gas_spent_wei`: its split is not
 * recorded anywhere and is left as it was.
 */
export const gaslessGasPerChainMigration: Migration = {
  name: '0013_gasless_gas_per_chain',
  async up(db) {
    await db.schema.alterTable(GASLESS_PAYMENTS, (t) => {
      units(t, 'destination_gas_spent_wei');
    });
  },
};

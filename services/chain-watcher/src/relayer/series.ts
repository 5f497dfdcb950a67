import type { Knex } from 'knex';
import type { ChainConfig } from '@stablepay/contracts';
import type { NewRelayerTransaction, RelayerTransaction, SeriesTable } from './relayer-transactions-repo.js';

/**
 * One series of relayer transactions and what its owner adds to the engine: an outgoing transfer
 * (its transfer and cancel attempts) or one action of a cross-chain payment (the mint, the transfer
 * to the merchant). Each action is exclusive on-chain (an authorization or message nonce is used
 * once), so no transaction of a series can repeat what an earlier one did.
 */
export interface RelayerSeries<A extends string> extends SeriesTable {
  /** Locks the owner's row in `trx` and says whether it still wants a new transaction. */
  stillWanted: (trx: Knex.Transaction) => Promise<boolean>;
  /** Who the transactions are for, in log lines. */
  logFields: Record<string, unknown>;
  onSigned?: (tx: NewRelayerTransaction<A>, chain: ChainConfig) => void;
  /** Test-only fault injection once the node holds a transaction (see killAt). */
  afterBroadcast: (tx: RelayerTransaction<A>) => void;
  /** The node took the transaction (not merely found its nonce used). */
  onAccepted?: (tx: RelayerTransaction<A>) => Promise<void>;
}

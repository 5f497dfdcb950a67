import type { Knex } from 'knex';
import { CHAIN_CURSORS } from '../migrations/tables.js';

export const readCursor = async (db: Knex, chainId: number): Promise<number | undefined> => {
  const row = (await db(CHAIN_CURSORS).where({ chain_id: chainId }).first('last_scanned_block')) as
    { last_scanned_block: string } | undefined;
  return row ? Number(row.last_scanned_block) : undefined;
};

/** Starts a chain's cursor; a replica that lost the race keeps the one stored first. */
export const initCursor = async (
  db: Knex,
  chainId: number,
  blockchain: string,
  block: number,
): Promise<number> => {
  await db(CHAIN_CURSORS)
    .insert({ chain_id: chainId, blockchain, last_scanned_block: block })
    .onConflict('chain_id')
    .ignore();
  return (await readCursor(db, chainId)) ?? block;
};

/**
 * Moves the cursor from `from` to `to` in the transaction that stores the findings, only if it still
 * stands at `from`: when two replicas scanned the same range, one commits and the other rolls back.
 */
export const advanceCursor = async (
  trx: Knex.Transaction,
  chainId: number,
  from: number,
  to: number,
): Promise<boolean> => {
  const n = await trx(CHAIN_CURSORS)
    .where({ chain_id: chainId, last_scanned_block: from })
    .update({ last_scanned_block: to, updated_at: trx.fn.now() });
  return n === 1;
};

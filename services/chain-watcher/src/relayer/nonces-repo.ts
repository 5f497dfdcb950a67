import type { Knex } from 'knex';
import { RELAYER_NONCES } from '../migrations/tables.js';

/**
 * The relayer's next nonce on a chain, taken under the row's lock in the caller's transaction (which
 * also stores the transaction signed with it): replicas allocating at once queue on the lock and
 * get consecutive nonces. Never below `chainPending` (eth_getTransactionCount "pending"), so a
 * relayer also used elsewhere, or a fresh table, starts where the chain stands. Outgoing transfers
 * and the CCTP relay share the allocator, so the two never give one nonce twice.
 */
export const allocateRelayerNonce = async (
  trx: Knex.Transaction,
  chainId: number,
  relayerAddress: string,
  chainPending: number,
): Promise<number> => {
  await trx(RELAYER_NONCES)
    .insert({ chain_id: chainId, relayer_address: relayerAddress, next_nonce: chainPending })
    .onConflict(['chain_id', 'relayer_address'])
    .ignore();
  const row = (await trx(RELAYER_NONCES)
    .where({ chain_id: chainId, relayer_address: relayerAddress })
    .forUpdate()
    .first('next_nonce')) as { next_nonce: string };
  const nonce = Math.max(Number(row.next_nonce), chainPending);
  await trx(RELAYER_NONCES)
    .where({ chain_id: chainId, relayer_address: relayerAddress })
    .update({ next_nonce: nonce + 1, updated_at: trx.fn.now() });
  return nonce;
};

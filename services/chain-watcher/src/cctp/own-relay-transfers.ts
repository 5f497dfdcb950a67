import type { ChainRpc } from '../chain/chain-rpc.js';
import { addressTopic, type TokenTransfer } from '../chain/erc20.js';
import { AUTHORIZATION_USED_TOPIC } from '../chain/fiat-token.js';
import { sameAddress } from '../chain/same-address.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { CCTP_PAYMENTS, CCTP_RELAY_TRANSACTIONS } from '../migrations/tables.js';
import { relayAuthorizationNonce } from './relayer-transfer.js';

/** A token transfer seen on a chain, in the transaction that made it. */
export type SeenTransfer = TokenTransfer & { txHash: string };

/** Transfers whose transaction the service signed for a payment, from its relay to its merchant. */
const signedRelayTransfers = async (
  ctx: WatcherContext,
  chainId: number,
  transfers: readonly SeenTransfer[],
  own: Map<string, string>,
): Promise<void> => {
  const hashes = [...new Set(transfers.map((t) => t.txHash.toLowerCase()))];
  const signed = (await ctx
    .db(`${CCTP_RELAY_TRANSACTIONS} as t`)
    .join(`${CCTP_PAYMENTS} as p`, 'p.payment_id', 't.payment_id')
    .where({ 't.chain_id': chainId, 't.action': 'transfer' })
    .whereIn('t.tx_hash', hashes)
    .select('t.tx_hash', 't.payment_id', 'p.relay_address', 'p.merchant_address')) as Array<{
    tx_hash: string;
    payment_id: string;
    relay_address: string | null;
    merchant_address: string | null;
  }>;
  for (const t of transfers) {
    const row = signed.find((r) => r.tx_hash.toLowerCase() === t.txHash.toLowerCase());
    if (row && sameAddress(row.relay_address, t.from) && sameAddress(row.merchant_address, t.to))
      own.set(t.txHash.toLowerCase(), row.payment_id);
  }
};

interface RelayPaymentRow {
  payment_id: string;
  step: string;
  transfer_tx_hash: string | null;
  relay_address: string | null;
  merchant_address: string | null;
  merchant_receives_units: string | null;
}

/** Relayer-flow payments on the chain that recorded one of `hashes`, or still wait at their transfer. */
const relayPaymentsFor = async (ctx: WatcherContext, chainId: number, hashes: string[]) =>
  (await ctx
    .db(CCTP_PAYMENTS)
    .where({ flow: 'relayer', destination_chain_id: chainId })
    .where((q) => q.whereIn('transfer_tx_hash', hashes).orWhere('step', 'transfer'))
    .select(
      'payment_id',
      'step',
      'transfer_tx_hash',
      'relay_address',
      'merchant_address',
      'merchant_receives_units',
    )) as RelayPaymentRow[];

/** The relay's authorization nonces used in a transaction, by the authorizer `from`. */
const authorizationsUsed = async (rpc: ChainRpc, t: SeenTransfer): Promise<Set<string>> => {
  const receipt = await rpc.receipt(t.txHash.toLowerCase());
  const authorizer = addressTopic(t.from);
  return new Set(
    (receipt?.logs ?? [])
      .filter(
        (l) =>
          !l.removed &&
          sameAddress(l.address, t.token) &&
          l.topics[0]?.toLowerCase() === AUTHORIZATION_USED_TOPIC &&
          l.topics[1]?.toLowerCase() === authorizer,
      )
      .map((l) => l.topics[2]!.toLowerCase()),
  );
};

/** Transfers from the relay that a payment recorded, or that use a waiting payment's authorization. */
const recordedOrAuthorized = async (
  ctx: WatcherContext,
  rpc: ChainRpc,
  fromRelay: SeenTransfer[],
  own: Map<string, string>,
): Promise<void> => {
  const payments = await relayPaymentsFor(
    ctx,
    rpc.chain.chainId,
    fromRelay.map((t) => t.txHash.toLowerCase()),
  );
  for (const t of fromRelay) {
    const txHash = t.txHash.toLowerCase();
    const paying = (p: RelayPaymentRow) =>
      sameAddress(p.relay_address, t.from) &&
      sameAddress(p.merchant_address, t.to) &&
      p.merchant_receives_units === String(t.value);
    const recorded = payments.find((p) => sameAddress(p.transfer_tx_hash, txHash) && paying(p));
    if (recorded) {
      own.set(txHash, recorded.payment_id);
      continue;
    }
    const waiting = payments.filter((p) => p.step === 'transfer' && paying(p));
    if (waiting.length === 0) continue;
    const used = await authorizationsUsed(rpc, t);
    const paid = waiting.find((p) => used.has(relayAuthorizationNonce(p.payment_id).toLowerCase()));
    if (paid) own.set(txHash, paid.payment_id);
  }
};

/**
 * Which of `transfers` are this service's own relay → merchant transfers, the last step of the
 * legacy relayer flow, and the payment each one pays (by transaction hash). Such a transfer is the
 * payment's `merchant_transfer_tx_hash`, not money nobody recorded, so the transfer scanner leaves
 * it out. Recognised, from the surest fact down:
 * - a transfer transaction the service signed for a payment (every one is stored before it is
 *   broadcast, so it is known before its block can be confirmed), moving funds from that payment's
 *   relay wallet to its merchant wallet;
 * - the payment's recorded transfer (someone else may submit the relay's signed authorization);
 * - while the payment is still at its transfer step, the relay's authorization used in the
 *   transaction: its nonce is derived from the payment id (relayAuthorizationNonce), so it names
 *   the one payment it can pay.
 * Reads the chain (one receipt) only for a transfer from the chain's relay wallet that the first two
 * do not explain; call it outside any database transaction.
 */
export const ownRelayTransfers = async (
  ctx: WatcherContext,
  rpc: ChainRpc,
  transfers: readonly SeenTransfer[],
): Promise<Map<string, string>> => {
  const own = new Map<string, string>();
  if (transfers.length === 0) return own;
  const chainId = rpc.chain.chainId;
  await signedRelayTransfers(ctx, chainId, transfers, own);
  const relay = ctx.relayers.addressOn(chainId);
  const fromRelay = transfers.filter(
    (t) => !own.has(t.txHash.toLowerCase()) && relay && sameAddress(relay, t.from),
  );
  if (fromRelay.length > 0) await recordedOrAuthorized(ctx, rpc, fromRelay, own);
  return own;
};

import type { Knex } from 'knex';
import { chainById, type TransferPurpose } from '@stablepay/contracts';
import { errorText, type Migration } from '@stablepay/platform';
import { decodeTransfer, type TokenTransfer } from '../chain/erc20.js';
import type { ReceiptFacts } from '../chain/rpc-facts.js';
import { CCTP_PAYMENTS, TRANSFERS, UNCLAIMED_TRANSFERS, VERIFICATIONS } from '../migrations/tables.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { recordPaymentIn, recordTransferOut, recordUnattributedIn, type TransferIn } from './journals.js';
import { sameAddress } from '../chain/same-address.js';

export const LEDGER_BACKFILL = 'ledger_backfill';

/** One row once the ledger holds everything recorded before it existed. */
export const ledgerBackfillMigration: Migration = {
  name: '0009_ledger_backfill',
  async up(db) {
    await db.schema.createTable(LEDGER_BACKFILL, (t) => {
      t.smallint('id').primary();
      t.timestamp('completed_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
      t.integer('movements').notNullable();
      t.check('id = 1', [], 'ledger_backfill_single_row');
    });
  },
};

/** Rejections whose transaction may still have moved tokens into the merchant wallet. */
const NO_TOKENS_MOVED = ['already_claimed', 'tx_reverted', 'tx_not_found', 'chain_mismatch', 'wrong_token'];
const RECEIPTS_PER_BATCH = 50;

interface Tally {
  written: number;
  /** movements whose receipt could not be read: the backfill is tried again later */
  unread: number;
}

const inTransaction = async (db: Knex, tally: Tally, write: (trx: Knex.Transaction) => Promise<boolean>) => {
  if (await db.transaction(write)) tally.written += 1;
};

/** Receipts of one chain's transactions, in batches; a failed batch leaves its hashes unread. */
const receiptsOf = async (
  ctx: WatcherContext,
  chainId: number,
  hashes: string[],
  tally: Tally,
): Promise<Map<string, ReceiptFacts | null>> => {
  const out = new Map<string, ReceiptFacts | null>();
  const rpc = ctx.chains.get(chainId);
  if (!rpc) {
    tally.unread += hashes.length;
    return out;
  }
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += RECEIPTS_PER_BATCH) {
    const chunk = unique.slice(i, i + RECEIPTS_PER_BATCH);
    try {
      const got =
        chunk.length === 1 ? new Map([[chunk[0]!, await rpc.receipt(chunk[0]!)]]) : await rpc.receipts(chunk);
      for (const [h, r] of got) out.set(h, r);
    } catch (err) {
      tally.unread += chunk.length;
      ctx.logger.warn('ledger backfill: receipts not readable, will retry', { chainId, err: errorText(err) });
    }
  }
  return out;
};

const transfersIn = (receipt: ReceiptFacts): TokenTransfer[] =>
  receipt.status === 1
    ? receipt.logs.map(decodeTransfer).filter((t): t is TokenTransfer => t !== undefined)
    : [];

interface VerificationRow {
  payment_id: string;
  merchant_id: string;
  tx_hash: string;
  chain_id: number;
  token: string;
  from_address: string;
  /** the wallet the payment was verified against (the merchant's wallet at the time) */
  to_address: string;
  status: string;
  reason: string | null;
}

/** Same-chain verdicts: the payer's logs into the wallet are the payment's when verified or underpaid. */
const backfillVerdicts = async (ctx: WatcherContext, tally: Tally): Promise<void> => {
  const rows = (await ctx
    .db(VERIFICATIONS)
    .where('status', 'verified')
    .orWhere((q) =>
      q.where('status', 'rejected').whereNotNull('block_number').whereNotIn('reason', NO_TOKENS_MOVED),
    )
    // Payments first, so a log a rejected payment also names is the payment's.
    .orderByRaw(`(status = 'verified' or reason = 'underpaid') desc, created_at`)) as VerificationRow[];
  const byChain = new Map<number, VerificationRow[]>();
  for (const r of rows) byChain.set(r.chain_id, [...(byChain.get(r.chain_id) ?? []), r]);
  for (const [chainId, ofChain] of byChain) {
    const chain = chainById(ctx.registry, chainId);
    const receipts = await receiptsOf(
      ctx,
      chainId,
      ofChain.map((r) => r.tx_hash),
      tally,
    );
    for (const v of ofChain) {
      const receipt = receipts.get(v.tx_hash);
      const tokenAddress = chain?.tokens[v.token as 'USDC'];
      if (!receipt || !chain || !tokenAddress) continue;
      const owned = v.status === 'verified' || v.reason === 'underpaid';
      // The wallet the verdict looked at, not today's: a merchant's wallet may have changed since.
      const walletAddress = v.to_address;
      const incoming = transfersIn(receipt).filter(
        (t) => sameAddress(t.token, tokenAddress) && sameAddress(t.to, walletAddress),
      );
      for (const log of incoming) {
        const t: TransferIn = {
          merchantId: v.merchant_id,
          chainId,
          blockchain: chain.name,
          token: v.token,
          walletAddress,
          txHash: v.tx_hash,
          logIndex: log.logIndex,
          amount: log.value,
          blockNumber: receipt.blockNumber,
        };
        await inTransaction(ctx.db, tally, async (trx) => {
          if (owned && sameAddress(log.from, v.from_address)) await recordPaymentIn(trx, t, v.payment_id);
          else await recordUnattributedIn(trx, t);
          return true;
        });
      }
    }
  }
};

interface CctpRow {
  payment_id: string;
  merchant_id: string;
  flow: 'bridge_kit' | 'relayer';
  mint_tx_hash: string | null;
  minted_units: string | null;
  transfer_tx_hash: string | null;
  relay_address: string | null;
  merchant_address: string | null;
  destination_chain_id: number | null;
  merchant_receives_units: string | null;
}

/**
 * Completed cross-chain payments: the bridge-kit mint into the wallet (its net amount), or the
 * relay's transfer of merchantReceives to it.
 */
const backfillCrossChain = async (ctx: WatcherContext, tally: Tally): Promise<void> => {
  const rows = (await ctx.db(CCTP_PAYMENTS).where('step', 'done').orderBy('payment_created_at')) as CctpRow[];
  for (const p of rows) {
    // Where the payment was minted or sent when it was made; today's wallet only where a row does not say.
    const recorded =
      p.merchant_address && p.destination_chain_id !== null
        ? { address: p.merchant_address, chainId: p.destination_chain_id }
        : undefined;
    const primary = recorded ? undefined : await ctx.wallets.primary(p.merchant_id);
    const wallet =
      recorded ??
      (primary && {
        address: p.merchant_address ?? primary.address,
        chainId: p.destination_chain_id ?? primary.chainId,
      });
    const chain = wallet && chainById(ctx.registry, wallet.chainId);
    const usdc = chain?.tokens.USDC;
    const txHash = p.flow === 'bridge_kit' ? p.mint_tx_hash : p.transfer_tx_hash;
    const value = BigInt((p.flow === 'bridge_kit' ? p.minted_units : p.merchant_receives_units) ?? -1);
    if (!wallet || !chain || !usdc || !txHash || value < 0n) continue;
    const receipt = (await receiptsOf(ctx, chain.chainId, [txHash], tally)).get(txHash);
    if (!receipt) continue;
    const log = transfersIn(receipt).find(
      (t) =>
        sameAddress(t.token, usdc) &&
        sameAddress(t.to, wallet.address) &&
        t.value === value &&
        (p.flow === 'bridge_kit' || (p.relay_address !== null && sameAddress(t.from, p.relay_address))),
    );
    if (!log) continue;
    await inTransaction(ctx.db, tally, async (trx) => {
      await recordPaymentIn(
        trx,
        {
          merchantId: p.merchant_id,
          chainId: chain.chainId,
          blockchain: chain.name,
          token: 'USDC',
          walletAddress: wallet.address,
          txHash,
          logIndex: log.logIndex,
          amount: value,
          blockNumber: receipt.blockNumber,
        },
        p.payment_id,
      );
      return true;
    });
  }
};

interface TransferRow {
  merchant_id: string;
  idempotency_key: string;
  purpose: TransferPurpose;
  chain_id: number;
  blockchain: string;
  token: string;
  from_address: string;
  amount_units: string;
  tx_hash: string;
  block_number: string;
}

/** Confirmed refunds, withdrawals and network fees: what they took out of the wallet needs no receipt. */
const backfillTransfersOut = async (ctx: WatcherContext, tally: Tally): Promise<void> => {
  const rows = (await ctx
    .db(TRANSFERS)
    .where('status', 'confirmed')
    .whereIn('purpose', ['refund', 'withdrawal', 'network_fee'])
    .whereNotNull('chain_id')
    .whereNotNull('from_address')
    .whereNotNull('amount_units')
    .whereNotNull('tx_hash')
    .whereNotNull('block_number')
    .orderBy('created_at')) as TransferRow[];
  for (const t of rows) {
    await inTransaction(ctx.db, tally, async (trx) => {
      await recordTransferOut(trx, {
        merchantId: t.merchant_id,
        chainId: t.chain_id,
        blockchain: t.blockchain,
        token: t.token,
        walletAddress: t.from_address,
        idempotencyKey: t.idempotency_key,
        purpose: t.purpose,
        txHash: t.tx_hash,
        blockNumber: Number(t.block_number),
        amount: BigInt(t.amount_units),
      });
      return true;
    });
  }
};

/**
 * What the scanner recorded: unattributed, unless a payment recorded the same log before (its
 * journal has the same key). Run last, so a matched transfer is its payment's, not attributed.
 */
const backfillUnclaimed = async (ctx: WatcherContext, tally: Tally): Promise<void> => {
  const rows = (await ctx.db(UNCLAIMED_TRANSFERS).orderBy('block_number')) as Array<Record<string, string>>;
  for (const u of rows) {
    await inTransaction(ctx.db, tally, async (trx) => {
      await recordUnattributedIn(trx, {
        merchantId: u.merchant_id!,
        chainId: Number(u.chain_id),
        blockchain: u.blockchain!,
        token: u.token!,
        walletAddress: u.to_address!,
        txHash: u.tx_hash!,
        logIndex: Number(u.log_index),
        amount: BigInt(u.amount_units!),
        blockNumber: Number(u.block_number),
      });
      return true;
    });
  }
};

/**
 * Builds the ledger of the money movements recorded before it existed: verified and underpaid
 * payments, other verdicts whose transaction still brought tokens, completed cross-chain payments,
 * confirmed refunds and withdrawals, unclaimed transfers. Every journal has the key the live path
 * gives the same movement, so running it twice, on two replicas at once, or beside the live
 * workers records each movement once. Done once every receipt was read; otherwise tried again.
 */
export const backfillLedger = async (ctx: WatcherContext): Promise<'done' | 'incomplete'> => {
  if (await ctx.db(LEDGER_BACKFILL).first('id')) return 'done';
  const tally: Tally = { written: 0, unread: 0 };
  await backfillVerdicts(ctx, tally);
  await backfillCrossChain(ctx, tally);
  await backfillTransfersOut(ctx, tally);
  await backfillUnclaimed(ctx, tally);
  if (tally.unread > 0) {
    ctx.logger.warn('ledger backfill incomplete: receipts unread', { unread: tally.unread });
    return 'incomplete';
  }
  await ctx.db(LEDGER_BACKFILL).insert({ id: 1, movements: tally.written }).onConflict('id').ignore();
  ctx.logger.info('ledger backfill done', { movements: tally.written });
  return 'done';
};

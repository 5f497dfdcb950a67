import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { LEDGER_BALANCES, LEDGER_ENTRIES, LEDGER_JOURNALS } from './migration.js';

/**
 * `wallet`: the tokens in the merchant wallet (what `balanceOf` shows). The others say where they
 * came from or went: `customer_payments` (paid by customers), `unattributed` (arrived, claimed by
 * no payment yet), `refunds`, `withdrawals`, `service_fees` (the withdrawal fee), `network_fees` (the relay's gas of
 * gasless payments whose merchant bears it).
 */
export type LedgerAccount =
  | 'wallet'
  | 'customer_payments'
  | 'unattributed'
  | 'refunds'
  | 'withdrawals'
  | 'service_fees'
  | 'network_fees';

/** What a journal records; also the `type` of a balance transaction. */
export type LedgerEntryType =
  'payment' | 'refund' | 'withdrawal' | 'withdrawal_fee' | 'network_fee' | 'unattributed' | 'attribution';

export interface WalletRef {
  merchantId: string;
  chainId: number;
  blockchain: string;
  token: string;
  /** the merchant wallet, any case (stored lower case) */
  walletAddress: string;
}

export interface NewJournal extends WalletRef {
  /** unique per movement: a second append with the same key records nothing */
  key: string;
  type: LedgerEntryType;
  txHash?: string | null;
  blockNumber?: number | null;
  logIndex?: number | null;
  paymentId?: string | null;
  refundId?: string | null;
  withdrawalId?: string | null;
  description?: string | null;
  /** signed base units per account; they must sum to zero */
  lines: ReadonlyArray<{ account: LedgerAccount; amount: bigint }>;
}

const lockRank = (account: LedgerAccount): number => (account === 'wallet' ? 0 : 1);

/**
 * Appends a journal and its entries in the caller's transaction (the one that records the state
 * change the journal is about). Each account's balance row is locked, in a fixed order, while its
 * entry is written, so balance_after is exact under concurrency. Returns false when a journal with
 * this key exists (the movement is already recorded).
 */
export const appendJournal = async (trx: Knex.Transaction, j: NewJournal): Promise<boolean> => {
  const sum = j.lines.reduce((s, l) => s + l.amount, 0n);
  if (sum !== 0n) throw new Error(`ledger journal ${j.key} does not balance (${sum})`);
  const wallet = j.walletAddress.toLowerCase();
  const journalId = randomUUID();
  const inserted = (await trx.raw(
    `insert into ${LEDGER_JOURNALS}
       (id, key, type, merchant_id, chain_id, blockchain, token, wallet_address, tx_hash, block_number,
        log_index, payment_id, refund_id, withdrawal_id, description)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (key) do nothing
     returning id`,
    [
      journalId,
      j.key,
      j.type,
      j.merchantId,
      j.chainId,
      j.blockchain,
      j.token,
      wallet,
      j.txHash?.toLowerCase() ?? null,
      j.blockNumber ?? null,
      j.logIndex ?? null,
      j.paymentId ?? null,
      j.refundId ?? null,
      j.withdrawalId ?? null,
      j.description ?? null,
    ],
  )) as { rows: Array<{ id: string }> };
  if (inserted.rows.length === 0) return false;
  // The wallet account first, then the others by name: the wallet row is the lock every journal of
  // a wallet and token takes first, so journals of one wallet queue there instead of deadlocking.
  const lines = [...j.lines].sort(
    (a, b) => lockRank(a.account) - lockRank(b.account) || a.account.localeCompare(b.account),
  );
  for (const line of lines) {
    const head = (await trx.raw(
      `insert into ${LEDGER_BALANCES} as b (chain_id, token, wallet_address, account, merchant_id, blockchain, balance)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (chain_id, token, wallet_address, account)
       do update set balance = b.balance + excluded.balance, updated_at = now()
       returning balance`,
      [j.chainId, j.token, wallet, line.account, j.merchantId, j.blockchain, line.amount.toString()],
    )) as { rows: Array<{ balance: string }> };
    await trx(LEDGER_ENTRIES).insert({
      id: randomUUID(),
      journal_id: journalId,
      merchant_id: j.merchantId,
      chain_id: j.chainId,
      token: j.token,
      wallet_address: wallet,
      account: line.account,
      amount: line.amount.toString(),
      balance_after: head.rows[0]!.balance,
      block_number: j.blockNumber ?? null,
    });
  }
  return true;
};

/**
 * What the ledger says a wallet held of a token at the end of `blockNumber`: the wallet account's
 * entries of movements mined up to that block.
 */
export const walletBalanceAt = async (
  db: Knex,
  w: { chainId: number; token: string; walletAddress: string },
  blockNumber: number,
): Promise<bigint> => {
  const row = (await db(LEDGER_ENTRIES)
    .where({
      chain_id: w.chainId,
      token: w.token,
      wallet_address: w.walletAddress.toLowerCase(),
      account: 'wallet',
    })
    .andWhere('block_number', '<=', blockNumber)
    .sum({ total: 'amount' })
    .first()) as { total: string | null } | undefined;
  return BigInt(row?.total ?? '0');
};

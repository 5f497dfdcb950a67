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

/** Where a line lands: one balance row per wallet, token and account. */
const balanceKey = (j: NewJournal, account: LedgerAccount): string =>
  `${j.chainId}\n${j.token}\n${j.walletAddress.toLowerCase()}\n${lockRank(account)}\n${account}`;

type Keyed = NewJournal & { id: string };
type Line = { j: Keyed; account: LedgerAccount; amount: bigint; balance: string };

/** The journals' rows, those whose key exists already left out; returns the keys written. */
const insertJournals = async (trx: Knex.Transaction, journals: Keyed[]): Promise<Set<string>> => {
  const inserted = (await trx(LEDGER_JOURNALS)
    .insert(
      journals.map((j) => ({
        id: j.id,
        key: j.key,
        type: j.type,
        merchant_id: j.merchantId,
        chain_id: j.chainId,
        blockchain: j.blockchain,
        token: j.token,
        wallet_address: j.walletAddress.toLowerCase(),
        tx_hash: j.txHash?.toLowerCase() ?? null,
        block_number: j.blockNumber ?? null,
        log_index: j.logIndex ?? null,
        payment_id: j.paymentId ?? null,
        refund_id: j.refundId ?? null,
        withdrawal_id: j.withdrawalId ?? null,
        description: j.description ?? null,
      })),
    )
    .onConflict('key')
    .ignore()
    .returning('key')) as Array<{ key: string }>;
  return new Set(inserted.map((r) => r.key));
};

/**
 * Adds the lines to their balance rows, one row per balance and all of them in one statement,
 * locked in key order; returns each row's balance after all of them.
 */
const addToBalances = async (trx: Knex.Transaction, lines: Line[]): Promise<Map<string, bigint>> => {
  const deltas = new Map<string, { j: Keyed; account: LedgerAccount; amount: bigint }>();
  for (const l of lines) {
    const d = deltas.get(l.balance);
    if (d) d.amount += l.amount;
    else deltas.set(l.balance, { j: l.j, account: l.account, amount: l.amount });
  }
  const heads = (await trx.raw(
    `insert into ${LEDGER_BALANCES} as b (chain_id, token, wallet_address, account, merchant_id, blockchain, balance)
     select * from jsonb_to_recordset(?::jsonb) as r(chain_id int, token text, wallet_address text,
              account text, merchant_id uuid, blockchain text, balance numeric)
     on conflict (chain_id, token, wallet_address, account)
     do update set balance = b.balance + excluded.balance, updated_at = now()
     returning chain_id, token, wallet_address, account, balance`,
    [
      JSON.stringify(
        [...deltas]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([, d]) => ({
            chain_id: d.j.chainId,
            token: d.j.token,
            wallet_address: d.j.walletAddress.toLowerCase(),
            account: d.account,
            merchant_id: d.j.merchantId,
            blockchain: d.j.blockchain,
            balance: d.amount.toString(),
          })),
      ),
    ],
  )) as {
    rows: Array<{
      chain_id: number;
      token: string;
      wallet_address: string;
      account: LedgerAccount;
      balance: string;
    }>;
  };
  return new Map(
    heads.rows.map((h) => [
      `${h.chain_id}\n${h.token}\n${h.wallet_address}\n${lockRank(h.account)}\n${h.account}`,
      BigInt(h.balance),
    ]),
  );
};

/**
 * Appends journals and their entries in the caller's transaction (the one that records the state
 * change they are about), in three statements whatever their number: the journals, the balance
 * rows, the entries. Returns the keys written; a journal whose key exists already (the movement is
 * recorded), or that repeats an earlier key of the list, records nothing.
 *
 * The balance rows are locked in one fixed order (wallet, token, address, the wallet account first,
 * then the others by name), so that journals of one wallet queue there instead of deadlocking, and
 * each entry's balance_after is the running balance in the order the journals were given.
 */
export const appendJournals = async (
  trx: Knex.Transaction,
  journals: readonly NewJournal[],
): Promise<Set<string>> => {
  const byKey = new Map<string, Keyed>();
  for (const j of journals) {
    const sum = j.lines.reduce((s, l) => s + l.amount, 0n);
    if (sum !== 0n) throw new Error(`ledger journal ${j.key} does not balance (${sum})`);
    if (!byKey.has(j.key)) byKey.set(j.key, { ...j, id: randomUUID() });
  }
  if (byKey.size === 0) return new Set();
  const written = await insertJournals(trx, [...byKey.values()]);
  const lines: Line[] = [...byKey.values()]
    .filter((j) => written.has(j.key))
    .flatMap((j) =>
      [...j.lines]
        .sort((a, b) => lockRank(a.account) - lockRank(b.account) || a.account.localeCompare(b.account))
        .map((line) => ({ j, ...line, balance: balanceKey(j, line.account) })),
    );
  if (lines.length === 0) return written;
  // Each balance row now holds its final balance; an entry's balance_after is that final balance
  // less the amounts of the entries written after it on the same row.
  const after = await addToBalances(trx, lines);
  const entries = [];
  for (const l of [...lines].reverse()) {
    const balanceAfter = after.get(l.balance)!;
    after.set(l.balance, balanceAfter - l.amount);
    entries.push({
      id: randomUUID(),
      journal_id: l.j.id,
      merchant_id: l.j.merchantId,
      chain_id: l.j.chainId,
      token: l.j.token,
      wallet_address: l.j.walletAddress.toLowerCase(),
      account: l.account,
      amount: l.amount.toString(),
      balance_after: balanceAfter.toString(),
      block_number: l.j.blockNumber ?? null,
    });
  }
  await trx(LEDGER_ENTRIES).insert(entries.reverse());
  return written;
};

/** appendJournals for one journal: false when a journal with its key exists already. */
export const appendJournal = async (trx: Knex.Transaction, j: NewJournal): Promise<boolean> =>
  (await appendJournals(trx, [j])).has(j.key);

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

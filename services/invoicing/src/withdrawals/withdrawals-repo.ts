import type { Knex } from 'knex';
import { type MadeByKey, type Db } from '@stablepay/platform';
import {
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type BlockchainName,
  type Currency,
  type WithdrawalStatus,
} from '@stablepay/contracts';
import type { Leg, LegState, WithdrawalRecord } from './records.js';
import { INVOICES, WITHDRAWALS } from '../db/migrations.js';
import { refundsOwed } from '../projections/refunds-in-flight-repo.js';
import { column, firstOf, date, dateOrNull, rowMapper, str, sumToDecimal, type Row } from '../db/rows.js';

/** One of the two transfers, from its `<leg>_` columns. */
const legOf =
  (leg: Leg) =>
  (r: Row): WithdrawalRecord[Leg] => ({
    state: r[`${leg}_state`] as LegState,
    txHash: str(r[`${leg}_tx_hash`]),
    confirmedAt: dateOrNull(r[`${leg}_confirmed_at`]),
  });

export const toWithdrawal = rowMapper<WithdrawalRecord>({
  id: column.text,
  merchantId: column.text,
  currency: column.oneOf(),
  blockchain: column.oneOf(),
  destinationAddress: column.text,
  treasuryAddress: column.text,
  grossAmount: column.decimal,
  feeAmount: column.decimal,
  netAmount: column.decimal,
  feeRate: column.decimal,
  status: column.oneOf(),
  failureReason: column.str,
  net: { row: legOf('net') },
  fee: { row: legOf('fee') },
  invoiceId: column.str,
  createdAt: column.date,
  completedAt: column.dateOrNull,
  failedAt: column.dateOrNull,
});

/** The withdrawal with the id of the invoice first issued for it (null until completed). */
const withInvoice = (db: Db) =>
  db(WITHDRAWALS).select(
    `${WITHDRAWALS}.*`,
    db.raw(
      `(select i.id from ${INVOICES} i where i.withdrawal_id = ${WITHDRAWALS}.id and i.rectifies_invoice_id is null) as invoice_id`,
    ),
  );

export interface NewWithdrawalRow {
  id: string;
  merchant_id: string;
  currency: Currency;
  blockchain: BlockchainName;
  destination_address: string;
  treasury_address: string;
  gross_amount: string;
  fee_amount: string;
  net_amount: string;
  fee_rate: string;
  request_key?: string | null;
  request_fingerprint?: string | null;
}

export const insertWithdrawal = async (db: Db, row: NewWithdrawalRow): Promise<WithdrawalRecord> => {
  const [inserted] = (await db(WITHDRAWALS)
    .insert({ ...row, status: 'requested' })
    .returning('*')) as Row[];
  return toWithdrawal({ ...inserted!, invoice_id: null });
};

/** The database's clock: compared with the confirmation times it wrote itself. */
export const databaseNow = async (db: Db): Promise<Date> => {
  const result = (await db.raw('select now() as now')) as { rows: Row[] };
  return date(result.rows[0]!.now);
};

/**
 * Serialises withdrawal decisions of one merchant across requests and replicas until the transaction
 * ends, so two withdrawals can never both be counted against the same funds.
 */
export const lockMerchantWithdrawals = async (trx: Knex.Transaction, merchantId: string): Promise<void> => {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`invoicing:withdrawals:${merchantId}`]);
};

/**
 * What the merchant wallet is already committed to send in `currency` on `blockchain`, beyond what a
 * balance read at `balanceReadAt` shows: every withdrawal transfer not confirmed or failed yet, those
 * confirmed since the balance was read (it may predate them), and the refunds still in flight or
 * completed since.
 */
export const committedOutflow = async (
  db: Db,
  merchantId: string,
  currency: Currency,
  blockchain: BlockchainName,
  balanceReadAt: Date,
): Promise<string> => {
  const legSum = (leg: Leg) =>
    `coalesce(sum(case when ${leg}_state in ('requested', 'submitted') or ${leg}_confirmed_at >= ? then ${leg}_amount else 0 end), 0)`;
  const mine = (await db.raw(
    `select ${legSum('net')} + ${legSum('fee')} as total
       from ${WITHDRAWALS}
      where merchant_id = ? and currency = ? and blockchain = ?`,
    [balanceReadAt, balanceReadAt, merchantId, currency, blockchain],
  )) as { rows: Row[] };
  const refunds = await refundsOwed(db, merchantId, currency, blockchain, balanceReadAt);
  return baseUnitsToDecimal(
    decimalToBaseUnits(sumToDecimal(mine.rows[0]?.total)) + decimalToBaseUnits(refunds),
  );
};

/** The withdrawal a merchant's request with this Idempotency-Key made, if any, with that request's fingerprint. */
export const findWithdrawalByRequestKey = async (
  db: Db,
  merchantId: string,
  requestKey: string,
): Promise<MadeByKey<WithdrawalRecord> | undefined> =>
  firstOf(
    withInvoice(db)
      .where(`${WITHDRAWALS}.merchant_id`, merchantId)
      .andWhere(`${WITHDRAWALS}.request_key`, requestKey),
    (row) => ({ made: toWithdrawal(row), fingerprint: (row.request_fingerprint as string | null) ?? null }),
  );

/** Another merchant's withdrawal is simply not found. */
export const findWithdrawal = async (
  db: Db,
  id: string,
  merchantId?: string,
): Promise<WithdrawalRecord | undefined> => {
  const q = withInvoice(db).where(`${WITHDRAWALS}.id`, id);
  if (merchantId !== undefined) q.andWhere(`${WITHDRAWALS}.merchant_id`, merchantId);
  return firstOf(q, toWithdrawal);
};

/** The withdrawal locked until the transaction ends: its transfer outcomes are applied one at a time. */
export const lockWithdrawal = async (
  trx: Knex.Transaction,
  id: string,
): Promise<WithdrawalRecord | undefined> => {
  const row = (await trx(WITHDRAWALS).where({ id }).forUpdate().first()) as Row | undefined;
  return row ? toWithdrawal({ ...row, invoice_id: null }) : undefined;
};

/**
 * Moves one transfer of a withdrawal to `to` only from one of `from`, in the UPDATE itself. Undefined
 * when the guard did not hold.
 */
export const updateLeg = async (
  db: Db,
  id: string,
  leg: Leg,
  from: readonly LegState[],
  to: LegState,
  patch: { txHash?: string | null; confirmed?: boolean } = {},
): Promise<WithdrawalRecord | undefined> => {
  const set: Record<string, unknown> = { [`${leg}_state`]: to, updated_at: db.fn.now() };
  if (patch.txHash) set[`${leg}_tx_hash`] = patch.txHash;
  if (patch.confirmed) set[`${leg}_confirmed_at`] = db.fn.now();
  const rows = (await db(WITHDRAWALS)
    .where({ id })
    .whereIn(`${leg}_state`, [...from])
    .update(set)
    .returning('*')) as Row[];
  return rows[0] ? toWithdrawal({ ...rows[0], invoice_id: null }) : undefined;
};

/** Records a transfer's hash while it is not final (a submission after a confirmation changes nothing). */
export const setLegTxHash = async (db: Db, id: string, leg: Leg, txHash: string): Promise<void> => {
  await db(WITHDRAWALS)
    .where({ id })
    .whereNull(`${leg}_tx_hash`)
    .update({ [`${leg}_tx_hash`]: txHash, updated_at: db.fn.now() });
};

export interface WithdrawalQuery {
  merchantId: string;
  status?: WithdrawalStatus;
  currency?: Currency;
  limit: number;
  offset: number;
}

export const listWithdrawals = async (
  db: Db,
  q: WithdrawalQuery,
): Promise<{ withdrawals: WithdrawalRecord[]; total: number }> => {
  const filter = (b: Knex.QueryBuilder) => {
    b.where(`${WITHDRAWALS}.merchant_id`, q.merchantId);
    if (q.status) b.andWhere(`${WITHDRAWALS}.status`, q.status);
    if (q.currency) b.andWhere(`${WITHDRAWALS}.currency`, q.currency);
    return b;
  };
  const [countRow] = (await filter(db(WITHDRAWALS)).count<Row[]>('* as count')) as Row[];
  const rows = (await filter(withInvoice(db))
    .orderBy([
      { column: `${WITHDRAWALS}.created_at`, order: 'desc' },
      { column: `${WITHDRAWALS}.id`, order: 'desc' },
    ])
    .limit(q.limit)
    .offset(q.offset)) as Row[];
  return { withdrawals: rows.map(toWithdrawal), total: Number(countRow?.count ?? 0) };
};

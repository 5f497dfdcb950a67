import type { Knex } from 'knex';
import type { TransferAuthorization } from '@stablepay/contracts';
import { AppError, fieldDetail } from '@stablepay/platform';
import { PAYMENTS } from '../db/tables.js';
import { toPayment, type Row } from '../db/rows.js';
import type { PaymentRecord } from '../records.js';

type Db = Knex | Knex.Transaction;

/**
 * The payment this authorization already made, of this merchant: by (chain, payer, nonce), the one
 * that has not failed, else a failed one only for exactly the same signature (a new signature after a
 * failure is a new attempt).
 */
export const findAuthorizedPayment = async (
  db: Db,
  merchantId: string,
  chainId: number,
  a: TransferAuthorization,
): Promise<PaymentRecord | undefined> => {
  const row = (await db(PAYMENTS)
    .where({ merchant_id: merchantId, source_chain_id: chainId, authorization_nonce: a.nonce.toLowerCase() })
    .whereRaw('lower(from_address) = ?', [a.from.toLowerCase()])
    .andWhere((q) =>
      q
        .whereNot({ status: 'failed' })
        .orWhereRaw(`lower(signed_authorization->>'signature') = ?`, [a.signature.toLowerCase()]),
    )
    .orderByRaw(`status <> 'failed' desc, created_at desc`)
    .first()) as Row | undefined;
  return row ? toPayment(row) : undefined;
};

/** A payer's gasless payments of the last minute, across every merchant. */
const recentPayerPayments = async (db: Db, from: string): Promise<number> => {
  const [row] = (await db(PAYMENTS)
    .count<Row[]>('* as count')
    .where({ funding: 'authorization' })
    .whereRaw('lower(from_address) = ?', [from.toLowerCase()])
    .andWhereRaw(`created_at > now() - interval '1 minute'`)) as Row[];
  return Number(row?.count ?? 0);
};

const rateLimited = () =>
  new AppError(
    'rate_limited',
    'Too many gasless payments from this address; try again in a minute',
    [
      fieldDetail(
        'authorization.from',
        'This address has opened too many gasless payments',
        'payer_rate_limited',
      ),
    ],
    60,
  );

/** 429 when the payer has opened `limit` gasless payments in the last minute (a read, no lock). */
export const requirePayerAllowance = async (db: Db, from: string, limit: number): Promise<void> => {
  if ((await recentPayerPayments(db, from)) >= limit) throw rateLimited();
};

/**
 * The same, decided for good in the transaction that has just inserted the payer's new payment (so a
 * replay, which inserts nothing, is never refused): the payer's transactions take turns on a
 * transaction-scoped advisory lock, and each counts the others' committed payments with its own, so
 * replicas racing for one payer cannot both pass.
 */
export const claimPayerAllowance = async (
  trx: Knex.Transaction,
  from: string,
  limit: number,
): Promise<void> => {
  await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [
    `payments:gasless-payer:${from.toLowerCase()}`,
  ]);
  if ((await recentPayerPayments(trx, from)) > limit) throw rateLimited();
};

/**
 * The relay's transaction for a gasless payment, while the payment is still pending: a replacement
 * (a bumped fee) sends a new hash and replaces the old. False when nothing changed (the payment
 * moved on, or is no gasless payment of this merchant on this chain).
 */
export const recordRelayedTransaction = async (
  db: Db,
  r: { paymentId: string; merchantId: string; chainId: number; txHash: string },
): Promise<boolean> =>
  (await db(PAYMENTS)
    .where({
      id: r.paymentId,
      merchant_id: r.merchantId,
      source_chain_id: r.chainId,
      funding: 'authorization',
      status: 'pending',
    })
    .update({ tx_hash: r.txHash.toLowerCase(), updated_at: db.fn.now() })) === 1;

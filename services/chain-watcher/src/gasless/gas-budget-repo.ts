import type { Knex } from 'knex';
import { GASLESS_GAS_QUOTES, GASLESS_GAS_USAGE, GASLESS_PAYMENTS } from '../migrations/tables.js';

/*
 * The relay's gas per merchant, chain and UTC day. A payment reserves what its check priced when it
 * arrives (in the transaction that records it), and its settlement turns the reservation into what
 * the relay really spent, so the daily sum never lags behind submissions in flight.
 */

/** The UTC day a moment falls in, as the `day` column holds it. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Wei reserved and spent for a merchant on a chain on `day`. */
export const gasUsedOn = async (
  db: Knex | Knex.Transaction,
  merchantId: string,
  chainId: number,
  day: string,
): Promise<bigint> => {
  const row = (await db(GASLESS_GAS_USAGE)
    .where({ merchant_id: merchantId, chain_id: chainId, day })
    .first('reserved_wei', 'spent_wei')) as { reserved_wei: string; spent_wei: string } | undefined;
  return row ? BigInt(row.reserved_wei) + BigInt(row.spent_wei) : 0n;
};

/** Adds to a day's reservation and spending (negative to release), creating the day's row. */
export const addGasUsage = async (
  trx: Knex.Transaction,
  key: { merchantId: string; chainId: number; day: string },
  change: { reservedWei: bigint; spentWei: bigint },
): Promise<void> => {
  const reserved = change.reservedWei.toString();
  const spent = change.spentWei.toString();
  // A release never takes a day below zero (a reservation made before a day's row was reset by hand).
  await trx.raw(
    `insert into ${GASLESS_GAS_USAGE} as u (merchant_id, chain_id, day, reserved_wei, spent_wei)
     values (?, ?, ?, greatest(?::numeric, 0), ?)
     on conflict (merchant_id, chain_id, day) do update
       set reserved_wei = greatest(u.reserved_wei + ?::numeric, 0),
           spent_wei = u.spent_wei + excluded.spent_wei,
           updated_at = now()`,
    [key.merchantId, key.chainId, key.day, reserved, spent, reserved],
  );
};

/** The payment's own figure of the relay's gas on `chainId`: its chain's, or its destination's. */
const spentColumnOn = (p: { chainId: number }, chainId: number) =>
  chainId === p.chainId ? 'gas_spent_wei' : 'destination_gas_spent_wei';

/**
 * Gas the relay spent for a payment on `chainId` after its submission settled (an approval, a burn,
 * a mint, the transfer collecting a merchant-borne fee), in the caller's transaction: on the
 * merchant's day there (the day the payment reserved its submission) and in the payment's figure
 * for that chain, each in wei of that chain's coin.
 */
export const recordRelayGas = async (
  trx: Knex.Transaction,
  p: { paymentId: string; merchantId: string; chainId: number; budgetDay: string },
  chainId: number,
  wei: bigint,
): Promise<void> => {
  if (wei === 0n) return;
  await addGasUsage(
    trx,
    { merchantId: p.merchantId, chainId, day: p.budgetDay },
    { reservedWei: 0n, spentWei: wei },
  );
  const column = spentColumnOn(p, chainId);
  await trx(GASLESS_PAYMENTS)
    .where({ payment_id: p.paymentId })
    .update({ [column]: trx.raw('coalesce(??, 0) + ?::numeric', [column, wei.toString()]) });
};

/** What a passed check priced an authorization's submission at, for the payment that follows it. */
export const recordGasQuote = async (
  db: Knex,
  q: { chainId: number; from: string; nonce: string; gasWei: bigint },
): Promise<void> => {
  await db(GASLESS_GAS_QUOTES)
    .insert({
      chain_id: q.chainId,
      from_address: q.from.toLowerCase(),
      nonce: q.nonce.toLowerCase(),
      gas_wei: q.gasWei.toString(),
    })
    .onConflict(['chain_id', 'from_address', 'nonce'])
    .merge(['gas_wei', 'checked_at']);
};

/** The latest price a check put on an authorization, or undefined when it was never checked here. */
export const quotedGas = async (
  trx: Knex.Transaction,
  q: { chainId: number; from: string; nonce: string },
): Promise<bigint | undefined> => {
  const row = (await trx(GASLESS_GAS_QUOTES)
    .where({ chain_id: q.chainId, from_address: q.from.toLowerCase(), nonce: q.nonce.toLowerCase() })
    .first('gas_wei')) as { gas_wei: string } | undefined;
  return row ? BigInt(row.gas_wei) : undefined;
};

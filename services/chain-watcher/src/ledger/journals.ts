import type { Knex } from 'knex';
import type { TransferPurpose } from '@stablepay/contracts';
import {
  appendJournal,
  appendJournals,
  type LedgerAccount,
  type LedgerEntryType,
  type NewJournal,
  type WalletRef,
} from './ledger-repo.js';
import { LEDGER_JOURNALS } from './migration.js';

/*
 * The journals each money movement writes, always in the transaction of the state change they
 * record. An incoming Transfer log is keyed by where it is on the chain, whoever records it (the
 * verifier, the scanner, the CCTP flows, the history backfill): the first writer wins and the
 * others record nothing, so a log is never counted twice in the wallet account.
 */

/** One Transfer log of the token into the merchant wallet. */
export interface TransferIn extends WalletRef {
  txHash: string;
  logIndex: number;
  amount: bigint;
  blockNumber: number;
}

export const transferInKey = (chainId: number, txHash: string, logIndex: number): string =>
  `transfer-in:${chainId}:${txHash.toLowerCase()}:${logIndex}`;

export const attributionKey = (chainId: number, txHash: string, logIndex: number): string =>
  `attribution:${chainId}:${txHash.toLowerCase()}:${logIndex}`;

export const transferOutKey = (idempotencyKey: string): string => `transfer:${idempotencyKey}`;

const movement = (t: TransferIn) => ({
  merchantId: t.merchantId,
  chainId: t.chainId,
  blockchain: t.blockchain,
  token: t.token,
  walletAddress: t.walletAddress,
  txHash: t.txHash,
  blockNumber: t.blockNumber,
  logIndex: t.logIndex,
});

/** A log into the wallet: wallet +, and customer_payments − when it is a payment's, else unattributed −. */
const transferInJournal = (t: TransferIn, paymentId: string | undefined): NewJournal => ({
  ...movement(t),
  key: transferInKey(t.chainId, t.txHash, t.logIndex),
  type: paymentId === undefined ? 'unattributed' : 'payment',
  ...(paymentId === undefined ? {} : { paymentId }),
  lines: [
    { account: 'wallet', amount: t.amount },
    { account: paymentId === undefined ? 'unattributed' : 'customer_payments', amount: -t.amount },
  ],
});

const attributionJournal = (t: TransferIn, paymentId: string): NewJournal => ({
  ...movement(t),
  key: attributionKey(t.chainId, t.txHash, t.logIndex),
  type: 'attribution',
  paymentId,
  lines: [
    { account: 'wallet', amount: 0n },
    { account: 'unattributed', amount: t.amount },
    { account: 'customer_payments', amount: -t.amount },
  ],
});

/**
 * Incoming Transfer logs, in as few statements as their number allows: one that belongs to a
 * payment (verified, or underpaid and so refundable) is wallet +, customer_payments −; one that no
 * payment claims (yet) is wallet +, unattributed −. When a payment's log is already recorded as
 * unattributed (the scanner saw it before the payment was known), it is attributed instead:
 * unattributed → customer_payments, the wallet untouched (a zero line keeps the journal visible
 * among the wallet's entries).
 */
export const recordTransfersIn = async (
  trx: Knex.Transaction,
  logs: ReadonlyArray<{ t: TransferIn; paymentId?: string }>,
): Promise<void> => {
  const journals = logs.map(({ t, paymentId }) => transferInJournal(t, paymentId));
  const written = await appendJournals(trx, journals);
  const recordedBefore = logs.filter(
    (_, i) => journals[i]!.type === 'payment' && !written.has(journals[i]!.key),
  );
  if (recordedBefore.length === 0) return;
  const unattributed = new Set(
    (
      (await trx(LEDGER_JOURNALS)
        .whereIn(
          'key',
          recordedBefore.map(({ t }) => transferInKey(t.chainId, t.txHash, t.logIndex)),
        )
        .where({ type: 'unattributed' })
        .select('key')) as Array<{ key: string }>
    ).map((r) => r.key),
  );
  await appendJournals(
    trx,
    recordedBefore
      .filter(({ t }) => unattributed.has(transferInKey(t.chainId, t.txHash, t.logIndex)))
      .map(({ t, paymentId }) => attributionJournal(t, paymentId!)),
  );
};

/** A log of the token into the merchant wallet that belongs to a payment (see recordTransfersIn). */
export const recordPaymentIn = (trx: Knex.Transaction, t: TransferIn, paymentId: string): Promise<void> =>
  recordTransfersIn(trx, [{ t, paymentId }]);

/** Tokens that arrived and that no payment claims (yet): wallet +, unattributed −. */
export const recordUnattributedIn = (trx: Knex.Transaction, t: TransferIn): Promise<void> =>
  recordTransfersIn(trx, [{ t }]);

/** A confirmed outgoing transfer from the merchant wallet (one Transfer log out of it). */
export interface TransferOut extends WalletRef {
  idempotencyKey: string;
  purpose: TransferPurpose;
  txHash: string;
  blockNumber: number;
  amount: bigint;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What an outgoing transfer is, from its requester's idempotency key: the refunds service keys a
 * refund's transfer by the refund id; invoicing keys a withdrawal's two legs
 * `withdrawal:<id>:net` and `withdrawal:<id>:fee`; the gasless relay keys a merchant-borne network
 * fee `network-fee:<payment id>`.
 */
export const outgoingKind = (
  purpose: TransferPurpose,
  idempotencyKey: string,
):
  | {
      type: LedgerEntryType;
      account: LedgerAccount;
      refundId?: string;
      withdrawalId?: string;
      paymentId?: string;
    }
  | undefined => {
  if (purpose === 'refund') {
    return {
      type: 'refund',
      account: 'refunds',
      refundId: UUID.test(idempotencyKey) ? idempotencyKey : undefined,
    };
  }
  if (purpose === 'withdrawal') {
    const m = /^withdrawal:([^:]+):(net|fee)$/.exec(idempotencyKey);
    const withdrawalId = m && UUID.test(m[1]!) ? m[1] : undefined;
    return m?.[2] === 'fee'
      ? { type: 'withdrawal_fee', account: 'service_fees', withdrawalId }
      : { type: 'withdrawal', account: 'withdrawals', withdrawalId };
  }
  if (purpose === 'network_fee') {
    const m = /^network-fee:(.+)$/.exec(idempotencyKey);
    return {
      type: 'network_fee',
      account: 'network_fees',
      paymentId: m && UUID.test(m[1]!) ? m[1] : undefined,
    };
  }
  // cctp_forward leaves the relay wallet, not a merchant's.
  return undefined;
};

/** Tokens that left the wallet: wallet −, refunds / withdrawals / service_fees / network_fees +. */
export const recordTransferOut = async (trx: Knex.Transaction, t: TransferOut): Promise<void> => {
  const kind = outgoingKind(t.purpose, t.idempotencyKey);
  if (!kind || t.amount === 0n) return;
  await appendJournal(trx, {
    merchantId: t.merchantId,
    chainId: t.chainId,
    blockchain: t.blockchain,
    token: t.token,
    walletAddress: t.walletAddress,
    key: transferOutKey(t.idempotencyKey),
    type: kind.type,
    txHash: t.txHash,
    blockNumber: t.blockNumber,
    refundId: kind.refundId ?? null,
    withdrawalId: kind.withdrawalId ?? null,
    paymentId: kind.paymentId ?? null,
    lines: [
      { account: 'wallet', amount: -t.amount },
      { account: kind.account, amount: t.amount },
    ],
  });
};

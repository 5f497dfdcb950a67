import type { Knex } from 'knex';
import type { VerificationRecord } from './verifications-repo.js';
import { recordPaymentIn, recordUnattributedIn } from '../ledger/journals.js';
import type { Final } from './rules.js';
import { sameAddress } from '../chain/same-address.js';

/**
 * The ledger's side of a verdict, in the verdict's transaction: every Transfer log of the token
 * that the transaction moved into the merchant wallet. The payer's logs belong to the payment when
 * it is verified or underpaid (what arrived is the payment's, and refundable); any other log, and
 * every log of another rejection, arrived unattributed. An already_claimed transaction pays
 * another payment, whose verdict recorded its logs.
 */
export const journalVerdict = async (
  trx: Knex.Transaction,
  v: VerificationRecord,
  final: Final,
): Promise<void> => {
  if (final.kind === 'rejected' && final.reason === 'already_claimed') return;
  const incoming = final.incoming ?? [];
  if (incoming.length === 0 || final.blockNumber === undefined) return;
  const owned = final.kind === 'verified' || final.reason === 'underpaid';
  for (const log of incoming) {
    const t = {
      merchantId: v.merchantId,
      chainId: v.chainId,
      blockchain: v.sourceChain,
      token: v.token,
      walletAddress: log.to,
      txHash: v.txHash,
      logIndex: log.logIndex,
      amount: log.value,
      blockNumber: final.blockNumber,
    };
    if (owned && sameAddress(log.from, v.fromAddress)) await recordPaymentIn(trx, t, v.paymentId);
    else await recordUnattributedIn(trx, t);
  }
};

/** Journals of several verdicts in one transaction, grouped by wallet so their locks queue in order. */
export const journalVerdicts = async (
  trx: Knex.Transaction,
  verdicts: ReadonlyArray<{ v: VerificationRecord; final: Final }>,
): Promise<void> => {
  const byWallet = [...verdicts].sort((a, b) =>
    `${a.v.chainId}:${a.v.token}:${a.v.toAddress.toLowerCase()}`.localeCompare(
      `${b.v.chainId}:${b.v.token}:${b.v.toAddress.toLowerCase()}`,
    ),
  );
  for (const { v, final } of byWallet) await journalVerdict(trx, v, final);
};

import type { Knex } from 'knex';
import type { VerificationRecord } from './verifications-repo.js';
import { recordTransfersIn, type TransferIn } from '../ledger/journals.js';
import type { Final } from './rules.js';
import { sameAddress } from '../chain/same-address.js';

/**
 * The ledger's side of a verdict, in the verdict's transaction: every Transfer log of the token
 * that the transaction moved into the merchant wallet. The payer's logs belong to the payment when
 * it is verified or underpaid (what arrived is the payment's, and refundable); any other log, and
 * every log of another rejection, arrived unattributed. An already_claimed transaction pays
 * another payment, whose verdict recorded its logs.
 */
const incomingOf = (v: VerificationRecord, final: Final): Array<{ t: TransferIn; paymentId?: string }> => {
  if (final.kind === 'rejected' && final.reason === 'already_claimed') return [];
  const incoming = final.incoming ?? [];
  const blockNumber = final.blockNumber;
  if (incoming.length === 0 || blockNumber === undefined) return [];
  const owned = final.kind === 'verified' || final.reason === 'underpaid';
  return incoming.map((log) => ({
    t: {
      merchantId: v.merchantId,
      chainId: v.chainId,
      blockchain: v.sourceChain,
      token: v.token,
      walletAddress: log.to,
      txHash: v.txHash,
      logIndex: log.logIndex,
      amount: log.value,
      blockNumber,
    },
    ...(owned && sameAddress(log.from, v.fromAddress) ? { paymentId: v.paymentId } : {}),
  }));
};

export const journalVerdict = (trx: Knex.Transaction, v: VerificationRecord, final: Final): Promise<void> =>
  recordTransfersIn(trx, incomingOf(v, final));

/**
 * Journals of several verdicts in one transaction and a few statements, grouped by wallet so that
 * their entries follow each other per wallet as they did one verdict at a time.
 */
export const journalVerdicts = async (
  trx: Knex.Transaction,
  verdicts: ReadonlyArray<{ v: VerificationRecord; final: Final }>,
): Promise<void> => {
  const byWallet = [...verdicts].sort((a, b) =>
    `${a.v.chainId}:${a.v.token}:${a.v.toAddress.toLowerCase()}`.localeCompare(
      `${b.v.chainId}:${b.v.token}:${b.v.toAddress.toLowerCase()}`,
    ),
  );
  await recordTransfersIn(
    trx,
    byWallet.flatMap(({ v, final }) => incomingOf(v, final)),
  );
};

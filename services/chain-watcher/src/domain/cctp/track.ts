import type { Knex } from 'knex';
import type { PaymentCreatedData } from '@stablepay/contracts';
import { insertCctpPayment } from '../../db/cctp-repo.js';

/**
 * Records a bridge-kit payment for the CCTP worker, in the transaction that consumes
 * payment.created: the burn is on the payment's chain (`chainId`), the mint on the merchant's.
 */
export const trackCrossChainPayment = async (
  trx: Knex.Transaction,
  p: PaymentCreatedData,
  expectedUnits: bigint,
): Promise<void> => {
  if (!p.bridgeKit) return;
  await insertCctpPayment(trx, {
    paymentId: p.paymentId,
    merchantId: p.merchantId,
    flow: 'bridge_kit',
    sourceChainId: p.chainId,
    destinationChainId: p.destinationChainId,
    burnTxHash: p.bridgeKit.burnTxHash.toLowerCase(),
    mintTxHash: p.bridgeKit.mintTxHash?.toLowerCase() ?? null,
    fromAddress: p.fromAddress,
    expectedUnits,
    paymentCreatedAt: new Date(p.createdAt),
  });
};

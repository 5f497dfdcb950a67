import type { Knex } from 'knex';
import { decimalToBaseUnits, numberToDecimalString, type PaymentCreatedData } from '@stablepay/contracts';
import { PermanentError } from '@stablepay/platform';
import { insertCctpPayment } from './cctp-repo.js';

/** A fee quote's amount in USDC base units; a genuine quote's numbers have at most 6 decimals. */
const quoteUnits = (p: PaymentCreatedData, amount: number): bigint => {
  try {
    return decimalToBaseUnits(numberToDecimalString(amount));
  } catch (err) {
    throw new PermanentError(`payment ${p.paymentId}: fee quote amount ${amount}: ${(err as Error).message}`);
  }
};

/**
 * Records a cross-chain payment for the CCTP worker, in the transaction that consumes
 * payment.created: the burn is on the payment's chain (`chainId`), the mint on the merchant's.
 * Bridge kit: the payer mints (or Circle forwards) to the merchant, at least the payment's amount
 * after fees (so the burn is of at least the amount, or expectedAmount when more). Legacy relayer flow (a fee
 * quote): the payer burns the quote's amountToBurn to the relay wallet, which mints and pays the
 * merchant the quote's merchantReceives.
 */
export const trackCrossChainPayment = async (
  trx: Knex.Transaction,
  p: PaymentCreatedData,
  expectedUnits: bigint,
  amountUnits: bigint,
): Promise<void> => {
  const common = {
    paymentId: p.paymentId,
    merchantId: p.merchantId,
    sourceChainId: p.chainId,
    destinationChainId: p.destinationChainId,
    fromAddress: p.fromAddress,
    paymentCreatedAt: new Date(p.createdAt),
  };
  if (p.bridgeKit) {
    await insertCctpPayment(trx, {
      ...common,
      flow: 'bridge_kit',
      burnTxHash: p.bridgeKit.burnTxHash.toLowerCase(),
      mintTxHash: p.bridgeKit.mintTxHash?.toLowerCase() ?? null,
      expectedUnits,
      // What the mint must deliver to the merchant wallet, Circle's fee taken: the payment's amount.
      merchantReceivesUnits: amountUnits,
    });
    return;
  }
  if (!p.feeQuote) return;
  await insertCctpPayment(trx, {
    ...common,
    flow: 'relayer',
    burnTxHash: p.txHash.toLowerCase(),
    mintTxHash: null,
    expectedUnits: quoteUnits(p, p.feeQuote.amountToBurn),
    merchantReceivesUnits: quoteUnits(p, p.feeQuote.merchantReceives),
  });
};

import type { Knex } from 'knex';
import { decimalToBaseUnits, type PaymentAuthorizationReceivedData } from '@stablepay/contracts';
import { PermanentError } from '@stablepay/platform';
import { addGasUsage, quotedGas, utcDay } from './gas-budget-repo.js';
import { insertGaslessPayment } from './gasless-repo.js';
import { authorizationOf } from './submission.js';

const unitsOf = (p: PaymentAuthorizationReceivedData, what: string, amount: string): bigint => {
  try {
    return decimalToBaseUnits(amount);
  } catch (err) {
    // A figure that is not a token amount can never be submitted, however often it is retried.
    throw new PermanentError(`payment ${p.paymentId}: ${what}: ${(err as Error).message}`);
  }
};

/**
 * What the transfer must deliver to the merchant wallet: the amount owed, plus the fees the
 * customer bears (the merchant's own are recorded against its balance, not taken from the transfer).
 */
export const expectedUnitsOf = (p: PaymentAuthorizationReceivedData): bigint => {
  const amount = unitsOf(p, 'amount', p.amount);
  if (p.feeBearer !== 'customer') return amount;
  return amount + unitsOf(p, 'networkFee', p.networkFee) + unitsOf(p, 'cctpFee', p.cctpFee);
};

/**
 * Records a gasless payment to submit, in the transaction that consumes its event: the gas its check
 * priced is reserved against the merchant's day in the same transaction, and the submission itself
 * (the relayer series) is signed and sent later by the gasless worker, outside any transaction. A
 * redelivered event finds its row and reserves nothing more.
 */
export const acceptAuthorization = async (
  trx: Knex.Transaction,
  p: PaymentAuthorizationReceivedData,
): Promise<void> => {
  const authorization = { ...authorizationOf(p.authorization), signature: p.authorization.signature };
  const reservedWei =
    (await quotedGas(trx, { chainId: p.chainId, from: authorization.from, nonce: authorization.nonce })) ??
    0n;
  const budgetDay = utcDay(new Date());
  const inserted = await insertGaslessPayment(trx, {
    paymentId: p.paymentId,
    merchantId: p.merchantId,
    chainId: p.chainId,
    sourceChain: p.sourceChain,
    token: p.currency,
    authorization,
    expectedUnits: expectedUnitsOf(p),
    feeBearer: p.feeBearer,
    networkFeeUnits: unitsOf(p, 'networkFee', p.networkFee),
    destinationChainId: p.isCrossChain ? p.destinationChainId : null,
    cctpFeeUnits: p.isCrossChain ? unitsOf(p, 'cctpFee', p.cctpFee) : 0n,
    merchantAddress: p.toAddress,
    sessionCreatedAt: p.sessionCreatedAt ? new Date(p.sessionCreatedAt) : null,
    paymentCreatedAt: new Date(p.createdAt),
    reservedWei,
    budgetDay,
  });
  if (inserted && reservedWei > 0n)
    await addGasUsage(
      trx,
      { merchantId: p.merchantId, chainId: p.chainId, day: budgetDay },
      { reservedWei, spentWei: 0n },
    );
};

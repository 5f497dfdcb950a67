import type { Knex } from 'knex';
import { baseUnitsToDecimal, type ChainConfig, type Currency } from '@stablepay/contracts';
import type { WatcherContext } from '../context/watcher-context.js';
import { acceptTransferRequest } from '../transfers/requests.js';
import type { GaslessPaymentRecord } from './gasless-repo.js';

/** The transfer that collects one payment's network fee: one per payment, whatever is redelivered. */
export const networkFeeKey = (paymentId: string): string => `network-fee:${paymentId}`;

/**
 * A merchant who bears the network fee of a gasless payment pays it from the merchant wallet that
 * received the payment, to the relay that spent the gas: a transfer of the transfer engine (signed by
 * the wallet, sent by the relayer, followed to its confirmation), requested in the transaction that
 * settles the payment's relay work. The confirmed transfer writes the ledger's `network_fee` journal
 * (wallet −, network_fees +), so the wallet account keeps matching balanceOf. The figure is the
 * quoted fee the payment was accepted with: on one chain the token moves the whole authorised amount
 * to the merchant wallet and the relay receives nothing, so no chain figure exists to read.
 */
export const requestNetworkFee = async (
  ctx: WatcherContext,
  trx: Knex.Transaction,
  p: GaslessPaymentRecord,
  paidOn: ChainConfig,
  token: Currency,
): Promise<void> => {
  if (p.feeBearer !== 'merchant' || p.networkFeeUnits === 0n) return;
  const relay = ctx.relayers.addressOn(paidOn.chainId);
  if (!relay) {
    ctx.logger.warn('network fee not collected: no relay on the chain', { paymentId: p.paymentId });
    return;
  }
  await acceptTransferRequest(ctx, trx, {
    idempotencyKey: networkFeeKey(p.paymentId),
    purpose: 'network_fee',
    merchantId: p.merchantId,
    blockchain: paidOn.name,
    token,
    amount: baseUnitsToDecimal(p.networkFeeUnits),
    toAddress: relay,
  });
};

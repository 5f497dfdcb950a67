import type { PublicChain } from '@stablepay/contracts';
import { encodeTransfer } from '../eth/abi.js';
import { estimateGas, gasPrice, nativeBalance } from '../eth/rpc.js';

/*
 * Whether the customer can pay the network fee of the transfer path themselves. A customer who holds
 * the token but too little of the chain's native token is offered the signature (gasless) path by
 * default: their own transaction would be refused by the wallet ("insufficient funds for gas").
 */

/** How the customer funds the payment: their own transaction, or a signed EIP-3009 authorization. */
export type Funding = 'transfer' | 'authorization';

/**
 * Gas units when the chain gives no estimate, a little above what FiatToken and CCTP v2 take, so
 * that the decision errs towards offering the signature.
 */
export const GAS_UNITS = { transfer: 70_000n, approve: 60_000n, burn: 200_000n, mint: 220_000n } as const;

/**
 * Wallets reserve about twice the base fee per gas (EIP-1559's maxFeePerGas) and refuse a transaction
 * whose gas limit times that exceeds the balance: a balance below twice today's cost is short.
 */
export const GAS_PRICE_MARGIN = 2n;

/** The native gas one chain of the transfer path needs, and what the wallet holds there. */
export interface GasNeed {
  chain: PublicChain;
  units: bigint;
  priceWei: bigint;
  nativeWei: bigint;
}

/** What the transfer path costs in gas, with the margin above. */
export const gasCostWei = (n: Pick<GasNeed, 'units' | 'priceWei'>): bigint =>
  n.units * n.priceWei * GAS_PRICE_MARGIN;

/** The first chain where the wallet holds too little native gas for its transactions, if any. */
export const gasShortfall = (needs: readonly GasNeed[]): GasNeed | undefined =>
  needs.find((n) => n.nativeWei < gasCostWei(n));

/** The transfer path's gas, per chain it sends on; `short` names the chain it lacks, if any. */
export interface TransferGas {
  needs: GasNeed[];
  short?: GasNeed;
}

/**
 * The signature by default for a wallet that holds the token but is short of gas; the transfer when
 * gas is there or unknown, or when there is no token to sign for (the balance is then the news).
 */
export const defaultFunding = (gas: TransferGas | undefined, tokenBalance: bigint): Funding =>
  gas?.short && tokenBalance > 0n ? 'authorization' : 'transfer';

const needOn = async (chain: PublicChain, account: string, units: Promise<bigint>): Promise<GasNeed> => {
  const [u, priceWei, nativeWei] = await Promise.all([
    units,
    gasPrice(chain.rpcUrls),
    nativeBalance(chain.rpcUrls, account),
  ]);
  return { chain, units: u, priceWei, nativeWei };
};

/**
 * Reads the gas the transfer path would need: one token transfer on the merchant's chain, or the
 * approval and burn on the customer's chain and the mint on the merchant's. Undefined when a chain
 * does not answer: the page then keeps the transfer path as before.
 */
export const readTransferGas = async (p: {
  chain: PublicChain;
  token: string;
  crossChain: boolean;
  account: string;
  recipient: string;
  merchantChain: PublicChain;
  amount: bigint;
}): Promise<TransferGas | undefined> => {
  try {
    const needs = p.crossChain
      ? await Promise.all([
          needOn(p.chain, p.account, Promise.resolve(GAS_UNITS.approve + GAS_UNITS.burn)),
          needOn(p.merchantChain, p.account, Promise.resolve(GAS_UNITS.mint)),
        ])
      : [
          await needOn(
            p.chain,
            p.account,
            // A transfer the chain cannot estimate (more than the balance, say) takes the usual units.
            estimateGas(p.chain.rpcUrls, {
              from: p.account,
              to: p.token,
              data: encodeTransfer(p.recipient, p.amount),
            }).catch(() => GAS_UNITS.transfer),
          ),
        ];
    return { needs, short: gasShortfall(needs) };
  } catch {
    return undefined;
  }
};

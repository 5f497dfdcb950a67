import type { PublicChain } from '@stablepay/contracts';
import type { Translate } from '../i18n.js';
import { formatEstimate } from '../money.js';
import type { PayOption } from '../pay/types.js';
import { nativeSymbol } from './native.js';

/*
 * What a way to pay costs and how long it takes, shown beside it before the customer chooses. Times
 * come from the chains (confirmations times block time) and, cross-chain, from Circle's fast
 * transfer: about 20 s to attest a burn on Ethereum, about 8 s on the other chains (CCTP v2 docs).
 */

/** A chain that does not say its block time (the devnet mines per transaction) counts as an L2's. */
const DEFAULT_BLOCK_MS = 2_000;
/** The wallet's or the relay's submission and the service's recording around the chain's own time. */
const OVERHEAD_S = 3;
const ETHEREUM_CCTP_DOMAIN = 0;

const finalSeconds = (chain: PublicChain): number =>
  (chain.confirmations * (chain.blockTimeMs ?? DEFAULT_BLOCK_MS)) / 1000;

/** Seconds from sending (or signing) until the merchant's chain has the payment as final. */
export const expectedSeconds = (
  option: Pick<PayOption, 'chain' | 'crossChain'>,
  merchantChain: PublicChain,
) =>
  option.crossChain
    ? (option.chain.cctpDomain === ETHEREUM_CCTP_DOMAIN ? 20 : 8) + finalSeconds(merchantChain) + OVERHEAD_S
    : finalSeconds(option.chain) + OVERHEAD_S;

/** "about 20 s", "about 2 min": to 5 s under a minute, to the minute above. */
export const aboutTime = (seconds: number, t: Translate): string =>
  t('timeEstimate', {
    time:
      seconds < 57.5
        ? t('seconds', { n: String(Math.max(5, Math.round(seconds / 5) * 5)) })
        : t('minutes', { n: String(Math.round(seconds / 60)) }),
  });

/** The transfer path's network fees, per native token ("0.000042 ETH + 0.0012 POL"), without the wallets' margin. */
export const networkFee = (option: PayOption, locale: string): string | undefined => {
  const needs = option.gas?.needs;
  if (!needs) return undefined;
  const bySymbol = new Map<string, bigint>();
  for (const n of needs) {
    const symbol = nativeSymbol(n.chain.name);
    bySymbol.set(symbol, (bySymbol.get(symbol) ?? 0n) + n.units * n.priceWei);
  }
  return [...bySymbol].map(([symbol, wei]) => `${formatEstimate(wei, 18, locale)} ${symbol}`).join(' + ');
};

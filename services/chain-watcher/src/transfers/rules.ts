import {
  baseUnitsToDecimal,
  decimalToBaseUnits,
  type ChainConfig,
  type Currency,
} from '@stablepay/contracts';
import type { TransferRecord } from './transfers-repo.js';
import type { WalletRecord } from '../wallets/wallets-repo.js';

/** Exponential from `pollMs`, capped. */
export const backoffDelay = (step: number, pollMs: number, maxMs: number): number =>
  Math.min(maxMs, pollMs * 2 ** Math.min(step, 20));

/**
 * The one time an unreachable chain decides a transfer: nothing was signed for it yet and its chain
 * has failed for `afterMs`. Once a transaction is signed it may land whatever the RPC says, so only
 * the chain can end it. Returns why the transfer fails, or undefined to keep trying.
 */
export const chainUnavailableReason = (
  t: Pick<TransferRecord, 'status' | 'blockchain' | 'rpcFailingSince'>,
  afterMs: number,
  now = Date.now(),
): string | undefined => {
  if (t.status !== 'pending' || !t.rpcFailingSince) return undefined;
  const failingFor = now - t.rpcFailingSince.getTime();
  if (failingFor < afterMs) return undefined;
  return `${t.blockchain} could not be reached for ${Math.round(failingFor / 1000)} s; nothing was sent`;
};

export type RequestCheck =
  | { ok: true; chain: ChainConfig; tokenAddress: string; units: bigint; wallet: WalletRecord }
  | { ok: false; reason: string };

/**
 * Whether a transfer command can be carried out at all, before anything is signed: the merchant has
 * a wallet here, on the chain named, the token is configured there, and the amount is a positive
 * number of base units. A refusal is final (`invalid_request`).
 */
export const checkTransferRequest = (
  req: { merchantId: string; blockchain: string; token: Currency; amount: string; toAddress: string },
  wallet: WalletRecord | undefined,
  chain: ChainConfig | undefined,
): RequestCheck => {
  if (!wallet) return { ok: false, reason: `merchant ${req.merchantId} has no wallet held by this service` };
  if (wallet.blockchain !== req.blockchain) {
    return {
      ok: false,
      reason: `the merchant's wallet is on ${wallet.blockchain}, not ${req.blockchain}`,
    };
  }
  if (!chain || chain.chainId !== wallet.chainId) {
    return { ok: false, reason: `${req.blockchain} is not served by this deployment` };
  }
  const tokenAddress = chain.tokens[req.token];
  if (!tokenAddress) return { ok: false, reason: `${req.token} is not available on ${chain.name}` };
  let units: bigint;
  try {
    units = decimalToBaseUnits(req.amount);
  } catch {
    return { ok: false, reason: `amount ${req.amount} is not a ${req.token} amount (at most 6 decimals)` };
  }
  if (units <= 0n) return { ok: false, reason: 'the amount must be greater than 0' };
  if (/^0x0{40}$/i.test(req.toAddress)) return { ok: false, reason: 'the recipient is the zero address' };
  return { ok: true, chain, tokenAddress, units, wallet };
};

export const amountText = (units: bigint, token: string): string => `${baseUnitsToDecimal(units)} ${token}`;

export const insufficientFundsReason = (f: {
  wallet: string;
  balance: bigint;
  value: bigint;
  token: string;
  chain: string;
  /** judged when the transfer transaction was mined, rather than before sending it */
  mined: boolean;
}): string =>
  f.mined
    ? `insufficient funds: the merchant wallet ${f.wallet} held ${amountText(f.balance, f.token)} when the transfer of ${amountText(f.value, f.token)} was mined`
    : `insufficient funds: the merchant wallet ${f.wallet} holds ${amountText(f.balance, f.token)} on ${f.chain}, the transfer needs ${amountText(f.value, f.token)}`;

export const pausedNote = (token: string, chain: string): string =>
  `the ${token} contract on ${chain} is paused: the transfer waits until it is unpaused`;

/**
 * Why a blacklisted transfer fails, naming who is blacklisted when the token says (`listed`, from
 * isBlacklisted), and the pair otherwise.
 */
export const blacklistedReason = (
  token: string,
  wallet: string,
  recipient: string,
  listed: string[] | undefined,
): string => {
  const isListed = (a: string) => listed?.some((l) => l.toLowerCase() === a.toLowerCase()) ?? false;
  const names = [
    ...(isListed(wallet) ? [`the merchant wallet ${wallet}`] : []),
    ...(isListed(recipient) ? [`the recipient ${recipient}`] : []),
  ];
  const who =
    names.length === 0
      ? `the merchant wallet ${wallet} or the recipient ${recipient} is`
      : `${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'}`;
  return `the ${token} contract refuses this address (blacklisted): ${who} on the ${token} issuer's blacklist; nothing was transferred`;
};

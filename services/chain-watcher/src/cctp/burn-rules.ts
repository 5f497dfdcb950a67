import type { CctpFailureReason, ChainConfig } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import type { DepositForBurn } from '../chain/cctp.js';
import { sameAddress } from '../chain/same-address.js';

/** What one look at a cross-chain payment concluded. */
export type CctpOutcome =
  | { kind: 'wait'; detail: string; retryAfterMs?: number; steady?: boolean }
  | { kind: 'fail'; reason: CctpFailureReason; detail: string };

/**
 * Look again later: with growing back-off while something is missing or unreachable, at the poll
 * pace (`steady`) while only blocks are awaited, never before `retryAfterMs`.
 */
export const waitFor = (
  detail: string,
  opts: { retryAfterMs?: number; steady?: boolean } = {},
): CctpOutcome => ({
  kind: 'wait',
  detail,
  ...opts,
});
export const fail = (reason: CctpFailureReason, detail: string): CctpOutcome => ({
  kind: 'fail',
  reason,
  detail,
});

export interface BurnExpectation {
  source: ChainConfig;
  destination: ChainConfig;
  /** who must have burned: the payment's fromAddress */
  depositor: string;
  /** who the burn must mint to: the merchant wallet (bridge kit) or the relay wallet (relayer flow) */
  mintRecipient: string;
  /** at least this many base units burned */
  minUnits: bigint;
}

/**
 * The first rule a burn breaks, in the order a customer would fix them: the token, who burned,
 * where to, for whom, how much. Undefined when the burn pays what the payment says.
 */
export const burnProblem = (burn: DepositForBurn, want: BurnExpectation): CctpOutcome | undefined => {
  const { source, destination } = want;
  if (!sameAddress(burn.burnToken, source.tokens.USDC)) {
    return fail('wrong_token', `the burn is of ${burn.burnToken}, not ${source.name} USDC`);
  }
  if (!sameAddress(burn.depositor, want.depositor)) {
    return fail(
      'wrong_sender',
      `the burn was made by ${burn.depositor}, not by ${getAddress(want.depositor)}`,
    );
  }
  if (burn.destinationDomain !== destination.cctpDomain) {
    return fail(
      'wrong_domain',
      `the burn goes to CCTP domain ${burn.destinationDomain}; the merchant is paid on ${destination.name} (domain ${destination.cctpDomain})`,
    );
  }
  if (!sameAddress(burn.mintRecipientAddress, want.mintRecipient)) {
    return fail(
      'wrong_recipient',
      `the burn mints to ${burn.mintRecipientAddress ?? burn.mintRecipient}, not to ${getAddress(want.mintRecipient)}`,
    );
  }
  if (burn.amount < want.minUnits) {
    return fail('underpaid', `the burn is of ${burn.amount} base units; at least ${want.minUnits} are due`);
  }
  return undefined;
};

/** Of the burns in one transaction, the one that pays, or the problem of the first. */
export const matchBurn = (
  burns: DepositForBurn[],
  want: BurnExpectation,
): { burn: DepositForBurn } | CctpOutcome => {
  let first: CctpOutcome | undefined;
  for (const burn of burns) {
    const problem = burnProblem(burn, want);
    if (!problem) return { burn };
    first ??= problem;
  }
  return first ?? fail('not_a_burn', `the transaction is not a CCTP burn on ${want.source.name}`);
};

import { chainById } from '@stablepay/contracts';
import { getAddress } from 'ethers';
import { authorizationState, findAuthorizationEvent } from '../chain/fiat-token.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { noteSearchFrom, type GaslessPaymentRecord } from './gasless-repo.js';
import { waitFor, type GaslessRoute, type GaslessWait } from './outcome.js';
import {
  advanceSubmission,
  listSubmissions,
  settleOwnNonce,
  type SubmissionLook,
} from './relay-submission.js';
import { advanceRelayMint } from './relay-mint.js';
import { handOver, rejectUnused } from './settle.js';
import { advanceBurn, crossChainRouteOf } from './burn.js';

const routeOf = (ctx: WatcherContext, p: GaslessPaymentRecord): GaslessRoute | GaslessWait => {
  const chain = chainById(ctx.registry, p.chainId);
  const token = chain?.tokens[p.token];
  const rpc = ctx.chains.get(p.chainId);
  if (!chain || !token || !rpc) return waitFor(`${p.token} on chain ${p.chainId} is no longer configured`);
  return { chain, rpc, token: getAddress(token) };
};

/** Where the search for the authorization's log starts: a log window below the head at the first look. */
const searchFromOf = async (ctx: WatcherContext, p: GaslessPaymentRecord, r: GaslessRoute) => {
  if (p.searchFromBlock !== null) return p.searchFromBlock;
  const from = Math.max(0, (await r.rpc.blockNumber()) - ctx.transfers.logWindowBlocks);
  await noteSearchFrom(ctx.db, p.paymentId, from);
  return from;
};

/**
 * The token used or cancelled the nonce: the log that did it, once deep enough, settles the
 * submission (whoever's transaction it was: the relay's hash is a hint, the log the proof).
 */
const settleSpent = async (
  ctx: WatcherContext,
  look: SubmissionLook,
  searchFrom: number,
): Promise<GaslessWait | undefined> => {
  const { p, r } = look;
  const { from, nonce } = p.authorization;
  const head = await r.rpc.blockNumber();
  const found = await findAuthorizationEvent(r.rpc, {
    token: r.token,
    authorizer: from,
    nonce,
    fromBlock: searchFrom,
    toBlock: head,
    maxBlocks: ctx.transfers.logWindowBlocks,
  });
  if (!found) return waitFor('the authorization is spent; its transaction is not found yet');
  if (head - found.blockNumber + 1 < r.chain.confirmations)
    return waitFor('confirmations of the transaction that spent the authorization', { steady: true });
  const ownNonce = await settleOwnNonce(ctx, look);
  if (ownNonce) return ownNonce;
  if (found.kind === 'canceled') {
    await rejectUnused(ctx, look, {
      outcome: 'cancelled',
      txHash: found.txHash,
      detail: `the payer cancelled the authorization before it was used (transaction ${found.txHash})`,
    });
    return undefined;
  }
  await handOver(ctx, look, found);
  return undefined;
};

/**
 * Whether the authorization can never be used: a block deep enough is at or past validBefore (the
 * token takes it only while block.timestamp < validBefore) and the nonce is still unused after it.
 */
const expiredUnused = async (
  r: GaslessRoute,
  p: GaslessPaymentRecord,
  used: () => Promise<boolean>,
): Promise<boolean> => {
  const settled = (await r.rpc.blockNumber()) - r.chain.confirmations + 1;
  const block = await r.rpc.block(Math.max(0, settled));
  if (!block || BigInt(block.timestamp) < p.authorization.validBefore) return false;
  return !(await used());
};

/**
 * One look at a gasless payment being submitted (or, across chains, burned and minted). The token is asked first, before sending and
 * after any restart: once the nonce is spent, its transaction is found rather than sent again.
 */
export const lookAtGasless = async (
  ctx: WatcherContext,
  p: GaslessPaymentRecord,
): Promise<GaslessWait | undefined> => {
  if (p.step === 'burn' || p.step === 'mint') {
    const route = crossChainRouteOf(ctx, p);
    if ('kind' in route) return route;
    return p.step === 'burn' ? advanceBurn(ctx, p, route) : advanceRelayMint(ctx, p, route);
  }
  const r = routeOf(ctx, p);
  if ('kind' in r) return r;
  const { from, nonce, validBefore } = p.authorization;
  const used = () => authorizationState(r.rpc, r.token, from, nonce);
  const searchFrom = await searchFromOf(ctx, p, r);
  const look: SubmissionLook = { p, r, txs: await listSubmissions(ctx, p) };
  if (await used()) return settleSpent(ctx, look, searchFrom);
  if (await expiredUnused(r, p, used)) {
    const at = new Date(Number(validBefore) * 1000).toISOString();
    await rejectUnused(ctx, look, {
      outcome: 'expired',
      detail: `authorization_expired: the customer's authorization expired at ${at} before any transaction used it`,
    });
    return undefined;
  }
  return advanceSubmission(ctx, look, async () => !(await used()));
};

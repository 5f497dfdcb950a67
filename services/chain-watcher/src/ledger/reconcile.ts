import { randomUUID } from 'node:crypto';
import { CURRENCIES } from '@stablepay/contracts';
import { errorText } from '@stablepay/platform';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { balancesAt } from '../chain/erc20.js';
import { readCursor } from '../verification/cursors-repo.js';
import { walletsOnChain } from '../wallets/wallets-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import {
  finishRun,
  ledgerBalancesAt,
  merchantsInFlight,
  startRun,
  type WalletCheck,
} from './reconciliation-repo.js';

/**
 * The block a chain is compared at: confirmed, and not past the scanner's cursor, so that every
 * transfer into a merchant wallet up to it has been seen (recorded against a payment, or as
 * unattributed) and a reorg cannot take it back.
 */
const comparisonBlock = async (ctx: WatcherContext, rpc: ChainRpc): Promise<number> => {
  const confirmed = (await rpc.blockNumber()) - rpc.chain.confirmations + 1;
  const cursor = await readCursor(ctx.db, rpc.chain.chainId);
  return Math.max(0, cursor === undefined ? confirmed : Math.min(confirmed, cursor));
};

/** Every wallet and token of one chain, compared at one block. */
const checkChain = async (ctx: WatcherContext, rpc: ChainRpc): Promise<WalletCheck[]> => {
  const { chain } = rpc;
  const wallets = await walletsOnChain(ctx.db, chain.chainId);
  const tokens = CURRENCIES.filter((t) => chain.tokens[t] !== undefined);
  const pairs = wallets.flatMap((w) => tokens.map((token) => ({ w, token })));
  if (pairs.length === 0) return [];
  const base = (p: (typeof pairs)[number]) => ({
    merchantId: p.w.merchantId,
    chainId: chain.chainId,
    blockchain: chain.name,
    token: p.token,
    address: p.w.address,
  });
  let block: number;
  let onchain: bigint[];
  try {
    block = await comparisonBlock(ctx, rpc);
    onchain = await balancesAt(
      rpc,
      pairs.map((p) => ({ token: chain.tokens[p.token]!, owner: p.w.address })),
      block,
    );
  } catch (err) {
    const error = `the ${chain.name} network could not be read: ${errorText(err)}`.slice(0, 500);
    ctx.logger.warn('reconciliation could not read a chain', { chain: chain.name, err: errorText(err) });
    return pairs.map((p) => ({
      ...base(p),
      blockNumber: null,
      ledgerBalance: null,
      onchainBalance: null,
      status: 'unreadable' as const,
      error,
    }));
  }
  // What is in flight is read before the ledger: a movement that settles in between is then in the
  // ledger, and one still under way is known to be. Both are read after the chain, and the ledger
  // only up to `block`, so a movement recorded meanwhile counts on both sides or on neither.
  const inFlight = await merchantsInFlight(ctx.db, chain.chainId);
  const ledger = await ledgerBalancesAt(ctx.db, chain.chainId, block);
  return pairs.map((p, i) => {
    const ledgerBalance = ledger.get(p.w.address.toLowerCase())?.get(p.token) ?? 0n;
    const onchainBalance = onchain[i]!;
    const status =
      ledgerBalance === onchainBalance
        ? ('agrees' as const)
        : inFlight.has(p.w.merchantId)
          ? ('in_flight' as const)
          : ('discrepancy' as const);
    return { ...base(p), blockNumber: block, ledgerBalance, onchainBalance, status, error: null };
  });
};

export interface ReconciliationSummary {
  runId: string;
  wallets: number;
  discrepancies: WalletCheck[];
  unreadable: number;
}

/**
 * One reconciliation: every merchant wallet's ledger balance of every token against balanceOf at a
 * confirmed block of its chain. Skipped (undefined) when another replica ran one within `minGapMs`.
 */
export const reconcileLedger = async (
  ctx: WatcherContext,
  minGapMs: number,
): Promise<ReconciliationSummary | undefined> => {
  const runId = randomUUID();
  if (!(await startRun(ctx.db, runId, minGapMs))) return undefined;
  const checks: WalletCheck[] = [];
  for (const rpc of ctx.chains.all()) checks.push(...(await checkChain(ctx, rpc)));
  await finishRun(ctx.db, runId, checks);
  const discrepancies = checks.filter((c) => c.status === 'discrepancy');
  for (const d of discrepancies) {
    ctx.logger.error('ledger and chain disagree', {
      merchantId: d.merchantId,
      chain: d.blockchain,
      token: d.token,
      address: d.address,
      blockNumber: d.blockNumber,
      ledgerBalance: d.ledgerBalance?.toString(),
      onchainBalance: d.onchainBalance?.toString(),
    });
  }
  return {
    runId,
    wallets: checks.length,
    discrepancies,
    unreadable: checks.filter((c) => c.status === 'unreadable').length,
  };
};

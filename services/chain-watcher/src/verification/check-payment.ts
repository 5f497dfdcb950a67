import { chainById, tokenByAddress, type ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import type { BlockFacts, ReceiptFacts } from '../chain/rpc-facts.js';
import { decodeTransfer, type TokenTransfer } from '../chain/erc20.js';
import type { Knex } from 'knex';
import { claimHolder, claimHolders, claimKey } from './claims-repo.js';
import type { VerificationRecord } from './verifications-repo.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { checkSessionTime, confirmationsOf, evaluateTransfers, reject, type Outcome } from './rules.js';
import { sameAddress } from '../chain/same-address.js';

/**
 * Reads shared by the payments checked in one pass: the head of each chain is asked once per pass,
 * the receipts and then their blocks in one batch request per chain, and who holds each
 * transaction in one query.
 */
export class PassCache {
  private readonly heads = new Map<number, Promise<number>>();
  private readonly blocks = new Map<string, Promise<BlockFacts | null>>();
  private readonly receipts = new Map<string, Promise<ReceiptFacts | null>>();
  private holders?: Promise<Map<string, string>>;

  /** Reads who holds the pass's transactions in one query (a failed read falls back to one each). */
  prefetchHolders(db: Knex, rows: ReadonlyArray<Pick<VerificationRecord, 'chainId' | 'txHash'>>): void {
    this.holders = claimHolders(db, rows);
    this.holders.catch(() => undefined);
  }

  async holder(db: Knex, chainId: number, txHash: string): Promise<string | undefined> {
    const all = await this.holders?.catch(() => undefined);
    return all ? all.get(claimKey(chainId, txHash)) : claimHolder(db, chainId, txHash);
  }

  /**
   * Asks for the receipts of a pass's payments in one batch per chain. A hash whose batch failed
   * is asked for on its own when its payment is checked.
   */
  prefetchReceipts(rpc: ChainRpc, txHashes: readonly string[]): void {
    const wanted = [...new Set(txHashes)].filter((h) => !this.receipts.has(`${rpc.chain.chainId}:${h}`));
    if (wanted.length < 2) return;
    const batch = rpc.receipts(wanted);
    // Registered before the payments' own reactions, so their blocks are asked for in one batch too.
    batch.then(
      (all) =>
        this.prefetchBlocks(
          rpc,
          [...all.values()].flatMap((r) => (r ? [r.blockNumber] : [])),
        ),
      () => undefined,
    );
    for (const hash of wanted) {
      this.receipts.set(
        `${rpc.chain.chainId}:${hash}`,
        batch.then(
          (all) => all.get(hash) ?? null,
          () => rpc.receipt(hash),
        ),
      );
    }
  }

  /** The blocks of a pass's receipts in one batch per chain (a failed batch: one call each). */
  private prefetchBlocks(rpc: ChainRpc, blockNumbers: readonly number[]): void {
    const key = (n: number) => `${rpc.chain.chainId}:${n}`;
    const wanted = [...new Set(blockNumbers)].filter((n) => !this.blocks.has(key(n)));
    if (wanted.length < 2) return;
    const batch = rpc.blocks(wanted);
    batch.catch(() => undefined);
    for (const n of wanted) {
      this.blocks.set(
        key(n),
        batch.then(
          (all) => all.get(n) ?? null,
          () => rpc.block(n),
        ),
      );
    }
  }

  receipt(rpc: ChainRpc, txHash: string): Promise<ReceiptFacts | null> {
    return this.receipts.get(`${rpc.chain.chainId}:${txHash}`) ?? rpc.receipt(txHash);
  }

  head(rpc: ChainRpc): Promise<number> {
    let head = this.heads.get(rpc.chain.chainId);
    if (!head) this.heads.set(rpc.chain.chainId, (head = rpc.blockNumber()));
    return head;
  }

  block(rpc: ChainRpc, blockNumber: number): Promise<BlockFacts | null> {
    const key = `${rpc.chain.chainId}:${blockNumber}`;
    let block = this.blocks.get(key);
    if (!block) this.blocks.set(key, (block = rpc.block(blockNumber)));
    return block;
  }
}

const wait = (
  why: Extract<Outcome, { kind: 'wait' }>['why'],
  detail: string,
  blockNumber: number | null = null,
  blockHash: string | null = null,
): Outcome => ({ kind: 'wait', why, detail, blockNumber, blockHash });

const pastNotFoundDeadline = (ctx: WatcherContext, v: VerificationRecord): boolean =>
  Date.now() - v.paymentCreatedAt.getTime() >= ctx.verification.txNotFoundAfterMs;

/** Rules that need no chain access: where the payment was made and whether its tx is taken. */
const checkPlacement = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  cache: PassCache,
): Promise<{ chain: ChainConfig; tokenAddress: string; wallet: string } | Outcome> => {
  const chain = chainById(ctx.registry, v.chainId);
  if (!chain) {
    return reject(
      'chain_mismatch',
      `chain id ${v.chainId} is not served by the ${ctx.registry.network} chain registry`,
    );
  }
  if (chain.name !== v.sourceChain) {
    return reject(
      'chain_mismatch',
      `chain id ${v.chainId} is ${chain.name} here, but the payment names ${v.sourceChain}`,
    );
  }
  const wallet = await ctx.wallets.primary(v.merchantId);
  if (!wallet) {
    // The merchant.created that creates it may still be waiting for a retry: give it the same
    // time a transaction gets to appear.
    if (!pastNotFoundDeadline(ctx, v)) return wait('not_found', 'the merchant has no wallet yet');
    return reject('wrong_recipient', 'the merchant has no wallet held by this service');
  }
  if (wallet.chainId !== v.chainId) {
    return reject(
      'chain_mismatch',
      `the merchant's wallet is on ${wallet.blockchain}; a same-chain payment on ${chain.name} cannot pay it`,
    );
  }
  const tokenAddress = chain.tokens[v.token];
  if (!tokenAddress) return reject('wrong_token', `${v.token} is not available on ${chain.name}`);
  const holder = await cache.holder(ctx.db, v.chainId, v.txHash);
  if (holder && holder !== v.paymentId) {
    return reject('already_claimed', `transaction ${v.txHash} already paid payment ${holder}`);
  }
  return { chain, tokenAddress, wallet: wallet.address };
};

interface Settled {
  receipt: ReceiptFacts;
  block: BlockFacts;
  confirmations: number;
}

/**
 * The transaction's receipt, once its block is deep enough and still canonical; otherwise why the
 * check waits (or, past the deadline, that the transaction was never found).
 */
const settledReceipt = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  chain: ChainConfig,
  rpc: ChainRpc,
  cache: PassCache,
): Promise<Settled | Outcome> => {
  const receipt = await cache.receipt(rpc, v.txHash);
  if (!receipt) {
    if (v.blockHash) {
      ctx.metrics.reorgs.inc({ chain: chain.name });
      return wait('reorg', `block ${v.blockHash} with the transaction is no longer canonical`);
    }
    if (pastNotFoundDeadline(ctx, v)) {
      return reject(
        'tx_not_found',
        `transaction not found on ${chain.name} within ${Math.round(ctx.verification.txNotFoundAfterMs / 1000)} s of the payment`,
      );
    }
    return wait('not_found', 'transaction not found yet');
  }
  const seen = { number: receipt.blockNumber, hash: receipt.blockHash };
  if (v.blockHash && v.blockHash !== seen.hash) {
    ctx.metrics.reorgs.inc({ chain: chain.name });
    return wait(
      'reorg',
      `transaction moved from block ${v.blockHash} to ${seen.hash}`,
      seen.number,
      seen.hash,
    );
  }
  const confirmations = confirmationsOf(await cache.head(rpc), seen.number);
  if (confirmations < chain.confirmations) {
    return wait(
      'confirmations',
      `${confirmations} of ${chain.confirmations} confirmations`,
      seen.number,
      seen.hash,
    );
  }
  const block = await cache.block(rpc, seen.number);
  if (!block || block.hash !== seen.hash) {
    return wait('reorg', `block ${seen.number} is no longer ${seen.hash}`, seen.number, seen.hash);
  }
  return { receipt, block, confirmations };
};

/** What a settled receipt says of the payment: its transfers into the wallet, judged by the rules. */
const judgeReceipt = (
  ctx: WatcherContext,
  v: VerificationRecord,
  placement: { chain: ChainConfig; tokenAddress: string; wallet: string },
  { receipt, block, confirmations }: Settled,
): Outcome => {
  const { chain, tokenAddress, wallet } = placement;
  const seen = { number: receipt.blockNumber, hash: receipt.blockHash };
  if (receipt.status !== 1) {
    return {
      ...reject('tx_reverted', 'the transaction reverted'),
      blockNumber: seen.number,
      blockHash: seen.hash,
    };
  }
  const transfers = receipt.logs.map(decodeTransfer).filter((t): t is TokenTransfer => t !== undefined);
  // Whatever the verdict, these reached the merchant wallet: the ledger records each of them.
  const incoming = transfers
    .filter((t) => sameAddress(t.token, tokenAddress) && sameAddress(t.to, wallet))
    .map(({ logIndex, from, to, value }) => ({ logIndex, from, to, value }));
  const at = { blockNumber: seen.number, blockHash: seen.hash, incoming };
  const blockTimestamp = new Date(block.timestamp * 1000);
  const tooEarly = checkSessionTime(blockTimestamp, v.sessionCreatedAt);
  if (tooEarly) return { ...tooEarly, ...at };

  const result = evaluateTransfers(transfers, {
    token: v.token,
    tokenAddress,
    knownTokenAt: (address) => tokenByAddress(ctx.registry, chain.chainId, address),
    fromAddress: v.fromAddress,
    wallet,
    expectedUnits: v.expectedUnits,
  });
  if (result.kind === 'rejected') return { ...result, ...at };
  return {
    kind: 'verified',
    receivedUnits: result.receivedUnits,
    blockNumber: seen.number,
    blockHash: seen.hash,
    blockTimestamp,
    confirmations,
    toAddress: wallet,
    incoming,
  };
};

/**
 * One look at a pending payment. Every answer that depends on a receipt waits until the including
 * block is deep enough and still canonical, so no verdict, favourable or not, rests on a block that
 * a reorg can take away. RPC failures propagate as RpcUnavailableError: never a verdict.
 */
export const checkPayment = async (
  ctx: WatcherContext,
  v: VerificationRecord,
  cache: PassCache,
): Promise<Outcome> => {
  const placement = await checkPlacement(ctx, v, cache);
  if ('kind' in placement) return placement;
  const rpc = ctx.chains.get(placement.chain.chainId);
  if (!rpc) return reject('chain_mismatch', `no RPC client for ${placement.chain.name}`);
  const settled = await settledReceipt(ctx, v, placement.chain, rpc, cache);
  if ('kind' in settled) return settled;
  return judgeReceipt(ctx, v, placement, settled);
};

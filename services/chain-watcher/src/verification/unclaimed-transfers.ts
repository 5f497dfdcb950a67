import { randomUUID } from 'node:crypto';
import type { Log } from 'ethers';
import type { Knex } from 'knex';
import type { ChainConfig } from '@stablepay/contracts';
import type { ChainRpc } from '../chain/chain-rpc.js';
import { TRANSFER_TOPIC, addressTopic, decodeTransfer } from '../chain/erc20.js';
import { advanceCursor, initCursor, readCursor } from './cursors-repo.js';
import {
  explainedTransactions,
  insertUnclaimed,
  lockTransactions,
  type NewUnclaimedTransfer,
} from './unclaimed-repo.js';
import { walletsOnChain, type WalletRecord } from '../wallets/wallets-repo.js';
import { recordTransfersIn } from '../ledger/journals.js';
import type { WatcherContext } from '../context/watcher-context.js';
import { ownRelayTransfers, type SeenTransfer } from '../cctp/own-relay-transfers.js';

/** Wallet addresses per eth_getLogs call: public nodes refuse very long topic lists. */
const ADDRESSES_PER_QUERY = 500;

/** Thrown to roll back a scan whose range another replica committed first. */
class CursorMoved extends Error {}

const tokenList = (rpc: ChainRpc): Array<[string, string]> =>
  Object.entries(rpc.chain.tokens).filter((e): e is [string, string] => typeof e[1] === 'string');

const fetchTransfers = async (
  rpc: ChainRpc,
  tokens: string[],
  wallets: WalletRecord[],
  fromBlock: number,
  toBlock: number,
): Promise<Log[]> => {
  const logs: Log[] = [];
  for (let i = 0; i < wallets.length; i += ADDRESSES_PER_QUERY) {
    const recipients = wallets.slice(i, i + ADDRESSES_PER_QUERY).map((w) => addressTopic(w.address));
    logs.push(
      ...(await rpc.logs({
        address: tokens,
        fromBlock,
        toBlock,
        topics: [TRANSFER_TOPIC, null, recipients],
      })),
    );
  }
  return logs;
};

/** What one range of blocks holds: the transfers into merchant wallets, and which of them are ours. */
interface RangeFindings {
  logs: Log[];
  walletByAddress: Map<string, WalletRecord>;
  symbolByAddress: Map<string, string>;
  /** the service's own relay → merchant transfers, by transaction hash */
  ownTransfers: Map<string, string>;
}

const readRange = async (
  ctx: WatcherContext,
  rpc: ChainRpc,
  tokens: Array<[string, string]>,
  fromBlock: number,
  toBlock: number,
): Promise<RangeFindings> => {
  const wallets = await walletsOnChain(ctx.db, rpc.chain.chainId);
  const logs = await fetchTransfers(
    rpc,
    tokens.map(([, address]) => address),
    wallets,
    fromBlock,
    toBlock,
  );
  const walletByAddress = new Map(wallets.map((w) => [w.address.toLowerCase(), w]));
  const symbolByAddress = new Map(tokens.map(([symbol, address]) => [address.toLowerCase(), symbol]));
  // The service's own relay → merchant transfers (the relayer flow's last step), read before the
  // transaction: recognising one may need a receipt from the chain.
  const seen = logs
    .map((log) => {
      const transfer = decodeTransfer(log);
      return transfer && { ...transfer, txHash: log.transactionHash.toLowerCase() };
    })
    .filter((t): t is SeenTransfer => !!t && walletByAddress.has(t.to.toLowerCase()));
  const ownTransfers = await ownRelayTransfers(ctx, rpc, seen);
  return { logs, walletByAddress, symbolByAddress, ownTransfers };
};

/** A transfer into one of the range's merchant wallets, as the row to record should nothing explain it. */
const candidate = (chain: ChainConfig, found: RangeFindings, log: Log): NewUnclaimedTransfer | undefined => {
  const transfer = decodeTransfer(log);
  const wallet = transfer && found.walletByAddress.get(transfer.to.toLowerCase());
  const symbol = transfer && found.symbolByAddress.get(transfer.token.toLowerCase());
  if (!transfer || !wallet || !symbol) return undefined;
  return {
    id: randomUUID(),
    chainId: chain.chainId,
    blockchain: chain.name,
    txHash: log.transactionHash.toLowerCase(),
    logIndex: transfer.logIndex,
    token: symbol,
    tokenAddress: transfer.token,
    fromAddress: transfer.from,
    toAddress: transfer.to,
    amountUnits: transfer.value,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    walletId: wallet.id,
    merchantId: wallet.merchantId,
  };
};

/**
 * The range's transfers into merchant wallets that nothing explains: not a same-chain payment's
 * transaction, nor a top-up's, nor a CCTP mint a cross-chain payment claimed (all read under the
 * transactions' locks, in one statement for the range), nor the relay paying the merchant for a
 * cross-chain payment (that payment's own transfer).
 */
const unexplained = async (
  trx: Knex.Transaction,
  chain: ChainConfig,
  found: RangeFindings,
): Promise<NewUnclaimedTransfer[]> => {
  const candidates = found.logs
    .map((log) => candidate(chain, found, log))
    .filter((row): row is NewUnclaimedTransfer => !!row);
  const txHashes = candidates.map((row) => row.txHash);
  await lockTransactions(trx, chain.chainId, txHashes);
  const explained = await explainedTransactions(trx, chain.chainId, txHashes);
  return candidates.filter((row) => !explained.has(row.txHash) && !found.ownTransfers.has(row.txHash));
};

/**
 * Records the range's unexplained transfers, each with its unattributed journal, in `trx`: the
 * rows in one statement, the journals of the new ones in a few more.
 */
const recordUnclaimed = async (
  trx: Knex.Transaction,
  chain: ChainConfig,
  found: RangeFindings,
): Promise<NewUnclaimedTransfer[]> => {
  const rows = await unexplained(trx, chain, found);
  const inserted = await insertUnclaimed(trx, rows);
  const recorded = rows.filter((row) => inserted.has(row.id));
  // Keyed like every record of these logs: a payment that claims one later attributes it.
  await recordTransfersIn(
    trx,
    recorded.map((row) => ({
      t: {
        merchantId: row.merchantId,
        chainId: row.chainId,
        blockchain: row.blockchain,
        token: row.token,
        walletAddress: row.toAddress,
        txHash: row.txHash,
        logIndex: row.logIndex,
        amount: row.amountUnits,
        blockNumber: row.blockNumber,
      },
    })),
  );
  return recorded;
};

const reportUnclaimed = (ctx: WatcherContext, chain: ChainConfig, recorded: NewUnclaimedTransfer[]): void => {
  for (const row of recorded) {
    ctx.metrics.unclaimedTransfers.inc({ chain: chain.name, token: row.token });
    ctx.logger.warn('unclaimed transfer to a merchant wallet', {
      // Minted by CCTP (from the zero address): a cross-chain payment nobody recorded.
      kind: /^0x0{40}$/i.test(row.fromAddress) ? 'cctp_mint' : 'transfer',
      chain: chain.name,
      txHash: row.txHash,
      merchantId: row.merchantId,
      token: row.token,
      blockNumber: row.blockNumber,
    });
  }
};

/**
 * Scans one chain forward from its cursor over confirmed blocks only, at most `maxBlocks` at a time,
 * for token transfers into merchant wallets that no payment claims (nor are the service's own
 * relay → merchant transfers of cross-chain payments). The findings and the new cursor
 * commit together, so a crash rescans the range and records nothing twice. Returns whether more
 * confirmed blocks remain.
 */
export const scanChain = async (ctx: WatcherContext, rpc: ChainRpc, maxBlocks: number): Promise<boolean> => {
  const { chain } = rpc;
  const tokens = tokenList(rpc);
  if (tokens.length === 0) return false;
  const confirmedHead = (await rpc.blockNumber()) - chain.confirmations + 1;
  const cursor = await readCursor(ctx.db, chain.chainId);
  if (cursor === undefined) {
    // First sight of this chain: wallets are created from now on, so history holds nothing of ours.
    const start = await initCursor(ctx.db, chain.chainId, chain.name, Math.max(0, confirmedHead));
    ctx.metrics.scannedBlock.set({ chain: chain.name }, start);
    return false;
  }
  if (cursor >= confirmedHead) return false;
  const toBlock = Math.min(confirmedHead, cursor + maxBlocks);
  const found = await readRange(ctx, rpc, tokens, cursor + 1, toBlock);
  let recorded: NewUnclaimedTransfer[];
  try {
    recorded = await ctx.db.transaction(async (trx) => {
      if (!(await advanceCursor(trx, chain.chainId, cursor, toBlock))) throw new CursorMoved();
      return recordUnclaimed(trx, chain, found);
    });
  } catch (err) {
    if (err instanceof CursorMoved) return true;
    throw err;
  }
  ctx.metrics.scannedBlock.set({ chain: chain.name }, toBlock);
  reportUnclaimed(ctx, chain, recorded);
  return toBlock < confirmedHead;
};

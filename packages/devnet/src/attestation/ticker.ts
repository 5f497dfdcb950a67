import type { MessageAttester } from './attester.js';
import type { ChainClient } from './chain-client.js';
import type { ForwardingRelayer } from './forwarder.js';
import type { AttestationLogger, ResolvedOptions } from './options.js';
import type { MessageStore, ObservedMessage } from './store.js';

type Warn = (message: string, error: unknown, meta?: Record<string, unknown>) => void;

export interface TickerParts {
  options: ResolvedOptions;
  clients: Map<number, ChainClient>;
  store: MessageStore;
  attester: MessageAttester;
  relayer: ForwardingRelayer;
}

interface Tick extends TickerParts {
  logger: AttestationLogger | undefined;
  warn: Warn;
}

const warner =
  (logger: AttestationLogger | undefined): Warn =>
  (message, error, meta = {}) =>
    logger?.warn?.(message, { ...meta, error: error instanceof Error ? error.message : String(error) });

/** New messages of one chain recorded; its head, for the depth of what waits. */
const scanChain = async (t: Tick, client: ChainClient): Promise<number> => {
  const result = await client.scan();
  if (result.kind === 'rewound') {
    const forgotten = t.store.forgetAbove(client.chain.name, result.head);
    t.logger?.info('chain went back; messages above its head forgotten', {
      chain: client.chain.name,
      forgotten,
    });
    return result.head;
  }
  for (const sent of result.messages) {
    if (t.store.has(client.chain.cctpDomain, sent.transactionHash, sent.logIndex)) continue;
    const record = await t.attester.observe(client, sent);
    t.store.add(record);
    t.logger?.info('cctp message seen', {
      chain: client.chain.name,
      txHash: record.transactionHash,
      finality: record.decision.finalityThresholdExecuted,
      feeExecuted: record.decision.feeExecuted.toString(),
      forward: record.forward?.state ?? null,
    });
  }
  client.commit(result.scannedTo);
  return result.head;
};

/** Each chain's head by CCTP domain; a chain that failed to answer is left out this time. */
const scanAll = async (t: Tick): Promise<Map<number, number>> => {
  const heads = new Map<number, number>();
  await Promise.all(
    [...t.clients.values()].map(async (client) => {
      try {
        heads.set(client.chain.cctpDomain, await scanChain(t, client));
      } catch (error) {
        t.warn('chain scan failed', error, { chain: client.chain.name });
      }
    }),
  );
  return heads;
};

/** 'waiting' while the burn lacks depth, 'failed' when signing failed, else 'attested'. */
const attestIfDue = async (t: Tick, record: ObservedMessage, sourceHead: number) => {
  if (!t.attester.isDue(record, sourceHead)) return 'waiting';
  try {
    const destinationHead = await t.clients.get(record.destinationDomain)?.head();
    t.store.setAttested(record, t.attester.attest(record, destinationHead));
    t.logger?.info('cctp message attested', { txHash: record.transactionHash, nonce: record.nonce });
    return 'attested';
  } catch (error) {
    t.warn('attestation failed', error, { txHash: record.transactionHash });
    return 'failed';
  }
};

/** Every known message moved as far as it can go now; the domains where one waits for blocks. */
const progressAll = async (t: Tick, heads: Map<number, number>): Promise<Set<number>> => {
  const waiting = new Set<number>();
  for (const record of t.store.all()) {
    const sourceHead = heads.get(record.sourceDomain);
    if (!record.attested && sourceHead !== undefined) {
      const step = await attestIfDue(t, record, sourceHead);
      if (step === 'waiting') waiting.add(record.sourceDomain);
      if (step !== 'attested') continue;
    }
    try {
      await t.relayer.progress(record);
    } catch (error) {
      t.warn('forwarding step failed', error, { nonce: record.nonce });
    }
    if (t.relayer.waitsForBlocks(record)) waiting.add(record.destinationDomain);
  }
  return waiting;
};

/**
 * One pass of the service: scan every chain for new messages, attest those deep enough, move each
 * forwarded transfer one step, and (when asked) mine where something waits for blocks.
 */
export const createTicker = (parts: TickerParts): { tick(): Promise<void>; warn: Warn } => {
  const logger = parts.options.logger;
  const t: Tick = { ...parts, logger, warn: warner(logger) };
  const tick = async (): Promise<void> => {
    const waiting = await progressAll(t, await scanAll(t));
    if (!t.options.mineWhileWaiting) return;
    await Promise.all(
      [...waiting].map((domain) =>
        t.clients
          .get(domain)
          ?.mine()
          .catch((error) => t.warn('mining failed', error)),
      ),
    );
  };
  return { tick, warn: t.warn };
};

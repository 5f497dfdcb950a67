import type { AddressInfo } from 'node:net';
import type { PendingShape } from './api-json.js';
import { MessageAttester } from './attester.js';
import { ChainClient } from './chain-client.js';
import { ForwardingRelayer } from './forwarder.js';
import { ServiceModes, createIrisServer } from './http.js';
import { resolveOptions, type AttestationServiceOptions } from './options.js';
import { irisRoutes } from './routes.js';
import { MessageStore, type ForwardState, type ObservedMessage } from './store.js';

/** A message as the service sees it, for tests. */
export interface SeenMessage {
  sourceChain: string;
  sourceDomain: number;
  destinationDomain: number;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  nonce: string;
  status: 'pending_confirmations' | 'complete';
  finalityThresholdExecuted: number;
  feeExecuted: bigint;
  delayReason: 'insufficient_fee' | null;
  expirationBlock: bigint | null;
  forwardState: ForwardState | null;
  forwardTxHash: string | null;
  forwardFailure: string | null;
}

/** Switches for tests. Every mode applies to every path until it is switched off. */
export interface AttestationControl {
  /** Answer every request this many milliseconds late (0: at once). */
  setDelay(ms: number): void;
  /** Answer every request with this 5xx status; false: answer normally. */
  setFailure(status: number | false): void;
  /** How messages not signed yet are written: Circle's placeholders ("0x", "PENDING") or nulls. */
  setPendingShape(shape: PendingShape): void;
  /** Refuse every request with 429 while on. */
  setRateLimited(on: boolean): void;
  /** Lift a block that Circle's rate limit (when configured) put in place. */
  clearRateLimit(): void;
  seen(): SeenMessage[];
  requestCount(): number;
  /** Scans every chain, attests and forwards now; resolves when done. */
  sync(): Promise<void>;
}

export interface AttestationService {
  url: string;
  port: number;
  control: AttestationControl;
  stop(): Promise<void>;
}

const seenMessage = (record: ObservedMessage): SeenMessage => ({
  sourceChain: record.sourceChain,
  sourceDomain: record.sourceDomain,
  destinationDomain: record.destinationDomain,
  transactionHash: record.transactionHash,
  logIndex: record.logIndex,
  blockNumber: record.blockNumber,
  nonce: record.nonce,
  status: record.attested ? 'complete' : 'pending_confirmations',
  finalityThresholdExecuted:
    record.attested?.finalityThresholdExecuted ?? record.decision.finalityThresholdExecuted,
  feeExecuted: record.decision.feeExecuted,
  delayReason: record.decision.delayReason,
  expirationBlock: record.attested?.expirationBlock ?? null,
  forwardState: record.forward?.state ?? null,
  forwardTxHash: record.forward?.txHash ?? null,
  forwardFailure: record.forward?.reason ?? null,
});

/**
 * The devnet's stand-in for Circle's attestation service (Iris) and Forwarding Service: watches the
 * CCTP contracts of every chain, attests burns as Circle's attester does, serves Circle's API paths
 * and JSON, and mints forwarded burns itself.
 */
export const startAttestationService = async (
  input: AttestationServiceOptions,
): Promise<AttestationService> => {
  const options = resolveOptions(input);
  const logger = options.logger;
  const clients = new Map(
    options.chains.map((chain) => [chain.cctpDomain, new ChainClient(chain, options.logRangeBlocks)]),
  );
  const store = new MessageStore();
  const relayer = new ForwardingRelayer(clients, options.relayerKeys, options.forwardConfirmations, logger);
  const attester = new MessageAttester(options, (domain) => relayer.canForwardTo(domain));
  const modes = new ServiceModes(options.rateLimit);

  const warn = (message: string, error: unknown, meta: Record<string, unknown> = {}) =>
    logger?.warn?.(message, { ...meta, error: error instanceof Error ? error.message : String(error) });

  const scanChain = async (client: ChainClient): Promise<number> => {
    const result = await client.scan();
    if (result.kind === 'rewound') {
      const forgotten = store.forgetAbove(client.chain.name, result.head);
      logger?.info('chain went back; messages above its head forgotten', {
        chain: client.chain.name,
        forgotten,
      });
      return result.head;
    }
    for (const sent of result.messages) {
      if (store.has(client.chain.cctpDomain, sent.transactionHash, sent.logIndex)) continue;
      const record = await attester.observe(client, sent);
      store.add(record);
      logger?.info('cctp message seen', {
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

  const tick = async (): Promise<void> => {
    const heads = new Map<number, number>();
    await Promise.all(
      [...clients.values()].map(async (client) => {
        try {
          heads.set(client.chain.cctpDomain, await scanChain(client));
        } catch (error) {
          warn('chain scan failed', error, { chain: client.chain.name });
        }
      }),
    );
    const waiting = new Set<number>();
    for (const record of store.all()) {
      const sourceHead = heads.get(record.sourceDomain);
      if (!record.attested && sourceHead !== undefined) {
        if (!attester.isDue(record, sourceHead)) {
          waiting.add(record.sourceDomain);
          continue;
        }
        try {
          const destinationHead = await clients.get(record.destinationDomain)?.head();
          store.setAttested(record, attester.attest(record, destinationHead));
          logger?.info('cctp message attested', { txHash: record.transactionHash, nonce: record.nonce });
        } catch (error) {
          warn('attestation failed', error, { txHash: record.transactionHash });
          continue;
        }
      }
      try {
        await relayer.progress(record);
      } catch (error) {
        warn('forwarding step failed', error, { nonce: record.nonce });
      }
      if (relayer.waitsForBlocks(record)) waiting.add(record.destinationDomain);
    }
    if (options.mineWhileWaiting) {
      await Promise.all(
        [...waiting].map((domain) =>
          clients
            .get(domain)
            ?.mine()
            .catch((error) => warn('mining failed', error)),
        ),
      );
    }
  };

  let queue: Promise<void> = Promise.resolve();
  const runTick = (): Promise<void> => (queue = queue.then(tick, tick));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    if (stopped) return;
    void runTick().finally(() => {
      if (!stopped) timer = setTimeout(loop, options.pollIntervalMs);
    });
  };

  let pendingShape: PendingShape = 'placeholders';
  const server = createIrisServer(
    irisRoutes({ options, clients, store, attester, relayer, pendingShape: () => pendingShape }),
    modes,
    (error) => warn('request failed', error),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host}:${port}`;
  logger?.info('attestation service listening', { url, chains: options.chains.map((c) => c.name) });
  loop();

  const control: AttestationControl = {
    setDelay: (ms) => {
      if (!Number.isInteger(ms) || ms < 0) throw new RangeError('delay must be a non-negative integer of ms');
      modes.delayMs = ms;
    },
    setFailure: (status) => {
      if (status !== false && !(Number.isInteger(status) && status >= 500 && status <= 599)) {
        throw new RangeError('failure status must be a 5xx code');
      }
      modes.failStatus = status === false ? null : status;
    },
    setPendingShape: (shape) => {
      pendingShape = shape;
    },
    setRateLimited: (on) => {
      modes.forceRateLimit = on;
    },
    clearRateLimit: () => modes.clearRateLimit(),
    seen: () =>
      store
        .all()
        .sort(
          (a, b) =>
            a.sourceDomain - b.sourceDomain || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex,
        )
        .map(seenMessage),
    requestCount: () => modes.requests,
    sync: () => runTick(),
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await queue; // a tick in flight finishes before its providers go
      for (const client of clients.values()) client.destroy();
    })();
    return stopping;
  };

  return { url, port, control, stop };
};

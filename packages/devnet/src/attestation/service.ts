import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PendingShape } from './api-json.js';
import { MessageAttester } from './attester.js';
import { ChainClient } from './chain-client.js';
import { createControl, type AttestationControl } from './control.js';
import { ForwardingRelayer } from './forwarder.js';
import { ServiceModes, createIrisServer } from './http.js';
import { resolveOptions, type AttestationServiceOptions } from './options.js';
import { irisRoutes } from './routes.js';
import { MessageStore } from './store.js';
import { createTicker } from './ticker.js';

export type { AttestationControl, SeenMessage } from './control.js';

export interface AttestationService {
  url: string;
  port: number;
  control: AttestationControl;
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs` after the previous one ends; `run` queues one more at once. Ticks
 * never overlap, so a sync a test asks for sees a whole pass.
 */
const tickLoop = (tick: () => Promise<void>, intervalMs: number) => {
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const run = (): Promise<void> => (queue = queue.then(tick, tick));
  const loop = () => {
    if (stopped) return;
    void run().finally(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs);
    });
  };
  return {
    run,
    start: loop,
    stop: (): void => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    /** Resolves once the ticks queued so far are done. */
    idle: (): Promise<void> => queue,
  };
};

const listen = async (server: Server, port: number, host: string): Promise<number> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
};

/**
 * The devnet's stand-in for Circle's attestation service (Iris) and Forwarding Service: watches the
 * CCTP contracts of every chain, attests burns as Circle's attester does, serves Circle's API paths
 * and JSON, and mints forwarded burns itself.
 */
export const startAttestationService = async (
  input: AttestationServiceOptions,
): Promise<AttestationService> => {
  const options = resolveOptions(input);
  const clients = new Map(
    options.chains.map((chain) => [chain.cctpDomain, new ChainClient(chain, options.logRangeBlocks)]),
  );
  const store = new MessageStore();
  const relayer = new ForwardingRelayer(
    clients,
    options.relayerKeys,
    options.forwardConfirmations,
    options.logger,
  );
  const attester = new MessageAttester(options, (domain) => relayer.canForwardTo(domain));
  const modes = new ServiceModes(options.rateLimit);
  const { tick, warn } = createTicker({ options, clients, store, attester, relayer });
  const ticks = tickLoop(tick, options.pollIntervalMs);

  let pendingShape: PendingShape = 'placeholders';
  const server = createIrisServer(
    irisRoutes({ options, clients, store, attester, relayer, pendingShape: () => pendingShape }),
    modes,
    (error) => warn('request failed', error),
  );
  const port = await listen(server, options.port, options.host);
  const url = `http://${options.host}:${port}`;
  options.logger?.info('attestation service listening', { url, chains: options.chains.map((c) => c.name) });
  ticks.start();

  const control = createControl({
    modes,
    store,
    setPendingShape: (shape) => {
      pendingShape = shape;
    },
    sync: ticks.run,
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      ticks.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await ticks.idle(); // a tick in flight finishes before its providers go
      for (const client of clients.values()) client.destroy();
    })();
    return stopping;
  };

  return { url, port, control, stop };
};

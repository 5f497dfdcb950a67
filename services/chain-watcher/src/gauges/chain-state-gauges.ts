import { formatEther } from 'ethers';
import { Gauge } from 'prom-client';
import type { Metrics } from '@stablepay/platform';
import type { ChainClients } from '../chain/chain-rpc.js';
import { MalformedRpcAnswer, parseBlock } from '../chain/rpc-facts.js';
import { ScrapeCache } from '../chain/scrape-cache.js';
import type { RelayerWallets } from '../custody/relayer-keys.js';
import type { SeriesName } from './database-gauges.js';

/** How long a scrape waits for a chain read before it answers without it. */
const SCRAPE_WAIT_MS = 2_000;

/**
 * What only the chains can say, read at scrape time through each chain's RPC client (so failures
 * count in chain_rpc_errors_total) and cached for `cacheMs`: the relayers' gas and how old each
 * chain's head is. A chain that cannot be read leaves its series out of the scrape.
 */
export const chainStateSeries = (
  base: Metrics,
  chains: ChainClients,
  relayers: RelayerWallets,
  cacheMs: number,
  series: { relayerBalance: SeriesName; headAge: SeriesName },
): void => {
  const opts = { ttlMs: cacheMs, waitMs: SCRAPE_WAIT_MS };
  const balances = relayers.list().flatMap((r) => {
    const rpc = chains.get(r.chainId);
    if (!rpc) return [];
    const read = () => rpc.call('eth_getBalance', (p) => p.getBalance(r.address));
    return [{ chain: rpc.name, address: r.address, cache: new ScrapeCache(read, opts) }];
  });
  new Gauge({
    ...series.relayerBalance,
    labelNames: ['chain', 'address'],
    registers: [base.registry],
    async collect() {
      const read = await Promise.all(balances.map(async (b) => ({ ...b, wei: await b.cache.get() })));
      this.reset();
      for (const b of read) {
        if (b.wei !== undefined) this.set({ chain: b.chain, address: b.address }, Number(formatEther(b.wei)));
      }
    },
  });

  // The head's timestamp is what is cached: the age keeps growing between reads, as it should.
  const heads = chains.all().map((rpc) => {
    const read = () =>
      rpc.call('eth_getBlockByNumber[latest]', async (p) => {
        const block = parseBlock(await p.send('eth_getBlockByNumber', ['latest', false]));
        if (!block) throw new MalformedRpcAnswer('no latest block');
        return block.timestamp;
      });
    return { chain: rpc.name, cache: new ScrapeCache(read, opts) };
  });
  new Gauge({
    ...series.headAge,
    labelNames: ['chain'],
    registers: [base.registry],
    async collect() {
      const read = await Promise.all(heads.map(async (h) => ({ ...h, timestamp: await h.cache.get() })));
      this.reset();
      const now = Date.now() / 1000;
      for (const h of read) {
        if (h.timestamp !== undefined) this.set({ chain: h.chain }, Math.max(0, now - h.timestamp));
      }
    },
  });
};

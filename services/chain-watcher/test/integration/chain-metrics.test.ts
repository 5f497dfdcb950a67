import { expect } from 'chai';
import { formatEther, parseEther } from 'ethers';
import type { ChainRegistry } from '@stablepay/contracts';
import { createMetrics } from '@stablepay/platform';
import { TEST_METRICS_TOKEN, metricValue, waitFor } from '@stablepay/platform/testing';
import { RpcProxy, deadUrl, startDevnet, type Devnet } from '@stablepay/devnet';
import { startDevnetAttestationService, type AttestationService } from '@stablepay/devnet/attestation/index';
import { AttestationApi, AttestationUnavailable } from '../../src/chain/attestation-api.js';
import { createChainWatcherMetrics } from '../../src/metrics.js';
import { Burner, RELAYER_TEST_CHAINS } from '../support/cctp-relayer.js';
import { randomTxHash, startHarness, type Harness } from '../support/harness.js';
import { ChainProbe, devnetRelayerKeys } from '../support/transfers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a scrape has any series of `name` for the chain. */
const hasSeries = (text: string, name: string, chain: string) =>
  text.split('\n').some((line) => line.startsWith(`${name}{`) && line.includes(`chain="${chain}"`));

describe('relayer gas, chain heads and attestation API calls at /metrics (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let base: ChainProbe;
  let eth: ChainProbe;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, chains: RELAYER_TEST_CHAINS, customers: 1 });
    base = new ChainProbe(devnet.chain('BASE'));
    eth = new ChainProbe(devnet.chain('ETH'));
  });
  after(async () => {
    base?.destroy();
    eth?.destroy();
    await devnet?.stop();
  });

  describe('read from the chains at scrape time', () => {
    const CACHE_MS = 3_000;
    let proxy: RpcProxy;
    let h: Harness;
    const relayerOf = (chain: 'BASE' | 'ETH') => devnet.relayers[chain]!.address;

    before(async () => {
      // BASE behind a proxy the test can break.
      proxy = new RpcProxy();
      const proxied = await proxy.start(devnet.chain('BASE').rpcUrl);
      const registry: ChainRegistry = devnet.registry();
      h = await startHarness({
        registry: {
          ...registry,
          chains: registry.chains.map((c) => (c.name === 'BASE' ? { ...c, rpcUrls: [proxied] } : c)),
        },
        env: { RELAYER_PRIVATE_KEYS: devnetRelayerKeys(devnet), CHAIN_METRICS_CACHE_MS: String(CACHE_MS) },
      });
    });
    after(async () => {
      await h?.close();
      await proxy?.stop();
    });

    const balanceCalls = (text: string) =>
      metricValue(text, 'chain_rpc_duration_seconds_count', { chain: 'BASE', method: 'eth_getBalance' });

    it("shows each relayer's gas in ether, read at most once per cache period", async () => {
      const first = await h.metrics();
      for (const chain of ['BASE', 'ETH'] as const) {
        const address = relayerOf(chain);
        const onChain = await (chain === 'BASE' ? base : eth).provider.getBalance(address);
        expect(onChain > 0n, chain).to.equal(true);
        expect(metricValue(first, 'chain_relayer_balance_ether', { chain, address }), chain).to.equal(
          Number(formatEther(onChain)),
        );
      }
      // A scrape shows the histogram before its own reads end: the next ones show the one call.
      expect(balanceCalls(await h.metrics())).to.equal(1);
      expect(balanceCalls(await h.metrics())).to.equal(1);

      const before = await base.provider.getBalance(relayerOf('BASE'));
      await devnet.fund('BASE', relayerOf('BASE'), { native: parseEther('1.5') });
      await sleep(CACHE_MS + 100);
      const later = await h.metrics();
      expect(balanceCalls(await h.metrics())).to.equal(2);
      expect(
        metricValue(later, 'chain_relayer_balance_ether', { chain: 'BASE', address: relayerOf('BASE') }),
      ).to.equal(Number(formatEther(before + parseEther('1.5'))));
    });

    it("shows the age of each chain's latest block, growing while no block comes", async () => {
      await devnet.mine('ETH');
      await sleep(CACHE_MS + 100);
      const fresh = await h.metrics();
      const age = metricValue(fresh, 'chain_head_age_seconds', { chain: 'ETH' });
      const latest = (await eth.provider.getBlock('latest'))!;
      expect(age).to.be.closeTo(Date.now() / 1000 - latest.timestamp, 2);
      expect(age).to.be.below(5);
      // No block mined on ETH (automine): its head only ages, whether or not it was read again.
      await sleep(2_100);
      expect(metricValue(await h.metrics(), 'chain_head_age_seconds', { chain: 'ETH' })).to.be.at.least(
        age + 2,
      );
      expect(hasSeries(fresh, 'chain_head_age_seconds', 'BASE')).to.equal(true);
    });

    it('leaves a chain that cannot be read out of the scrape, which still answers', async () => {
      proxy.mode = 'refuse';
      await sleep(CACHE_MS + 100);
      const res = await fetch(`${h.url}/metrics`, {
        headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
      });
      expect(res.status).to.equal(200);
      const text = await res.text();
      expect(hasSeries(text, 'chain_relayer_balance_ether', 'BASE')).to.equal(false);
      expect(hasSeries(text, 'chain_head_age_seconds', 'BASE')).to.equal(false);
      expect(hasSeries(text, 'chain_relayer_balance_ether', 'ETH')).to.equal(true);
      expect(hasSeries(text, 'chain_head_age_seconds', 'ETH')).to.equal(true);
      // The failed reads are counted by the time of the next scrape, which does not read again.
      const next = await h.metrics();
      expect(hasSeries(next, 'chain_relayer_balance_ether', 'BASE')).to.equal(false);
      expect(
        metricValue(next, 'chain_rpc_errors_total', {
          chain: 'BASE',
          method: 'eth_getBalance',
          kind: 'refused',
        }),
      ).to.be.at.least(1);
      expect(
        metricValue(next, 'chain_rpc_duration_seconds_count', {
          chain: 'BASE',
          method: 'eth_getBlockByNumber[latest]',
          outcome: 'unavailable',
        }),
      ).to.be.at.least(1);

      proxy.mode = 'up';
      await sleep(CACHE_MS + 100);
      await waitFor(
        async () => hasSeries(await h.metrics(), 'chain_relayer_balance_ether', 'BASE'),
        'the balance back once the chain answers',
      );
    });
  });

  describe('attestation API requests', () => {
    let attestation: AttestationService;
    let proxy: RpcProxy;
    const metricsFor = () => {
      const base = createMetrics('chain-watcher', false);
      return { base, metrics: createChainWatcherMetrics(base) };
    };

    before(async () => {
      attestation = await startDevnetAttestationService(devnet, { pollIntervalMs: 100 });
      proxy = new RpcProxy();
    });
    after(async () => {
      await proxy?.stop();
      await attestation?.stop();
    });

    it('counts them by operation and outcome, and times them', async () => {
      const { base: registry, metrics } = metricsFor();
      const api = new AttestationApi({ baseUrl: attestation.url, timeoutMs: 2_000, metrics });
      const ethDomain = devnet.chain('ETH').cctpDomain;

      expect(await api.messagesByTransaction(ethDomain, randomTxHash())).to.deep.equal([]);
      const burner = new Burner(devnet.chain('ETH'), devnet.customers[0]!);
      try {
        const receipt = await burner.burn({
          amount: '2',
          destination: devnet.chain('BASE'),
          recipient: burner.address,
        });
        await waitFor(
          async () => (await api.messagesByTransaction(ethDomain, receipt.hash)).length > 0,
          'the burn seen by the attestation service',
        );
      } finally {
        burner.destroy();
      }
      expect(await api.reattest(randomTxHash())).to.equal(false);

      const failing = async (baseUrl: string) => {
        const broken = new AttestationApi({ baseUrl, timeoutMs: 2_000, rateLimitBackoffMs: 1, metrics });
        const err = await broken.messagesByTransaction(ethDomain, randomTxHash()).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(AttestationUnavailable);
      };
      const proxied = await proxy.start(attestation.url);
      proxy.mode = 'http_502';
      await failing(proxied);
      proxy.mode = 'http_429';
      await failing(proxied);
      await failing(await deadUrl());

      const text = await registry.registry.metrics();
      const count = (operation: string, outcome: string) =>
        metricValue(text, 'cctp_attestation_requests_total', { operation, outcome });
      expect(count('messages', 'not_found')).to.be.at.least(1);
      expect(count('messages', 'ok')).to.be.at.least(1);
      expect(count('reattest', 'not_found')).to.equal(1);
      expect(count('messages', 'server')).to.equal(1);
      expect(count('messages', 'rate_limited')).to.equal(1);
      expect(count('messages', 'network')).to.equal(1);
      const calls = metricValue(text, 'cctp_attestation_requests_total');
      expect(metricValue(text, 'cctp_attestation_request_duration_seconds_count')).to.equal(calls);
      expect(metricValue(text, 'cctp_attestation_request_duration_seconds_sum')).to.be.above(0);
    });
  });
});

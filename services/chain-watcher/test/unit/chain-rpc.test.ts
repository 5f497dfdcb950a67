import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChainConfig } from '@stablepay/contracts';
import { createMetrics } from '@stablepay/platform';
import { ChainRpc, RpcUnavailableError } from '../../src/index.js';
import { createChainWatcherMetrics } from '../../src/metrics.js';
import { deadUrl } from '@stablepay/devnet';

type Behaviour = 'ok' | '429' | '503' | 'hang' | 'rpc_error' | 'revert' | 'unicode' | 'not_json' | 'not_utf8';

/** A JSON-RPC node whose behaviour a test sets; answers eth_blockNumber with its own number. */
const fakeNode = async (head: number) => {
  const state = { behaviour: 'ok' as Behaviour, calls: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      state.calls++;
      const { id } = JSON.parse(body) as { id: number };
      const reply = (payload: unknown) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id, ...(payload as object) }));
      };
      switch (state.behaviour) {
        case '429':
        case '503':
          res.statusCode = Number(state.behaviour);
          return res.end('busy');
        case 'hang':
          return;
        case 'rpc_error':
          return reply({ error: { code: -32000, message: 'header not found' } });
        case 'revert':
          return reply({ error: { code: 3, message: 'execution reverted', data: '0x' } });
        case 'unicode':
          return reply({ result: 'anvil — ü ✓ 🦊' });
        case 'not_json':
          return res.end('<html>gateway</html>');
        case 'not_utf8':
          // a JSON answer whose bytes are not UTF-8 (0xff never occurs in it)
          return res.end(
            Buffer.concat([
              Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":"`),
              Buffer.from([0xff]),
              Buffer.from('"}'),
            ]),
          );
        default:
          return reply({ result: `0x${head.toString(16)}` });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/secret-api-key`;
  return {
    url,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
};

const chain = (rpcUrls: string[]): ChainConfig => ({
  name: 'BASE',
  chainId: 31002,
  cctpDomain: 6,
  rpcUrls,
  confirmations: 1,
  tokens: {},
});

describe("ChainRpc: fallback across a chain's RPC URLs", () => {
  const nodes: Array<Awaited<ReturnType<typeof fakeNode>>> = [];
  let rpc: ChainRpc | undefined;
  afterEach(async () => {
    rpc?.destroy();
    await Promise.all(nodes.splice(0).map((n) => n.close()));
  });
  const node = async (head: number) => {
    const n = await fakeNode(head);
    nodes.push(n);
    return n;
  };
  const metricsFor = () => createChainWatcherMetrics(createMetrics('chain-watcher', false));

  it('uses the first URL while it answers and falls back in order when it fails', async () => {
    const [a, b, c] = [await node(10), await node(20), await node(30)];
    const metrics = metricsFor();
    rpc = new ChainRpc({ chain: chain([a.url, b.url, c.url]), timeoutMs: 500, metrics, cooldownMs: 0 });
    expect(await rpc.blockNumber()).to.equal(10);
    a.state.behaviour = '503';
    expect(await rpc.blockNumber()).to.equal(20);
    b.state.behaviour = 'rpc_error';
    a.state.behaviour = '429';
    expect(await rpc.blockNumber()).to.equal(30);
    const errors = await metrics.rpcErrors.get();
    const byKind = Object.fromEntries(errors.values.map((v) => [v.labels.kind, v.value]));
    expect(byKind).to.deep.equal({ server_error: 1, rpc_error: 1, rate_limited: 1 });
    expect((await metrics.rpcFallbacks.get()).values[0]!.value).to.equal(2);
  });

  it('tries a URL that just failed only after the healthy ones, until its cooldown ends', async () => {
    const [a, b] = [await node(1), await node(2)];
    rpc = new ChainRpc({ chain: chain([a.url, b.url]), timeoutMs: 500, cooldownMs: 200 });
    a.state.behaviour = '503';
    expect(await rpc.blockNumber()).to.equal(2);
    a.state.behaviour = 'ok';
    const callsBefore = a.state.calls;
    expect(await rpc.blockNumber()).to.equal(2); // a is cooling down: not even asked
    expect(a.state.calls).to.equal(callsBefore);
    await new Promise((r) => setTimeout(r, 250));
    expect(await rpc.blockNumber()).to.equal(1); // back to the primary
  });

  it('throws RpcUnavailableError naming every failure, timeouts included, without leaking URL paths', async () => {
    const [a, b] = [await node(1), await node(2)];
    a.state.behaviour = 'hang';
    b.state.behaviour = '429';
    const dead = await deadUrl();
    rpc = new ChainRpc({ chain: chain([a.url, b.url, dead]), timeoutMs: 200 });
    const started = Date.now();
    const err = await rpc.blockNumber().then(
      () => expect.fail('expected RpcUnavailableError'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RpcUnavailableError);
    const failure = err as RpcUnavailableError;
    expect(failure.failures.map((f) => f.kind)).to.deep.equal(['timeout', 'rate_limited', 'refused']);
    expect(failure.message).to.not.include('secret-api-key');
    expect(Date.now() - started).to.be.lessThan(2_000);
  });

  it('reads an answer that is not ASCII, and falls back when an answer is not JSON or not UTF-8', async () => {
    const [a, b] = [await node(1), await node(2)];
    const metrics = metricsFor();
    rpc = new ChainRpc({ chain: chain([a.url, b.url]), timeoutMs: 500, metrics, cooldownMs: 0 });
    a.state.behaviour = 'unicode';
    const version = await rpc.call('web3_clientVersion', (p) => p.send('web3_clientVersion', []));
    expect(version).to.equal('anvil — ü ✓ 🦊');
    a.state.behaviour = 'not_json';
    expect(await rpc.blockNumber()).to.equal(2);
    a.state.behaviour = 'not_utf8';
    expect(await rpc.blockNumber()).to.equal(2);
    a.state.behaviour = 'ok';
    expect(await rpc.blockNumber()).to.equal(1);
    expect((await metrics.rpcFallbacks.get()).values[0]!.value).to.equal(2);
  });

  it('does not try other URLs when the node answered with a revert', async () => {
    const [a, b] = [await node(1), await node(2)];
    a.state.behaviour = 'revert';
    rpc = new ChainRpc({ chain: chain([a.url, b.url]), timeoutMs: 500 });
    const err = await rpc.ethCall(`0x${'11'.repeat(20)}`, '0x70a08231').then(
      () => expect.fail('expected a revert'),
      (e: { code?: string }) => e,
    );
    expect(err).to.not.be.instanceOf(RpcUnavailableError);
    expect(b.state.calls).to.equal(0);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { metricValue } from '@stablepay/platform/testing';
import { units } from '../support/chain.js';
import { freshWallet } from '../support/gasless.js';
import { startCrossChainGasless, type CrossChainGasless } from '../support/gasless-cross-chain.js';
import { startHarness, type Harness } from '../support/harness.js';

/**
 * A JSON-RPC endpoint in front of anvil that refuses eth_call's and eth_estimateGas's third
 * parameter (the state override), as a node without it answers (geth's wording), and passes every
 * other request through unchanged.
 */
const refusingOverrides = async (upstream: string): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
      if (!Array.isArray(call) && (call.params?.length ?? 0) > 2) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: call.id,
            error: { code: -32602, message: 'too many arguments, want at most 2' },
          }),
        );
        return;
      }
      void fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          res.setHeader('content-type', 'application/json');
          res.end(await answer.text());
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

describe("gasless cross-chain quotes: the relay's approval and burn estimated, or the fixed figure where a node refuses state overrides (anvil + PostgreSQL + RabbitMQ)", function () {
  this.timeout(90_000);
  let x: CrossChainGasless;
  let refusing: { url: string; server: Server };
  let h: Harness;

  before(async () => {
    x = await startCrossChainGasless();
    // USDC in circulation on ETH, as on any chain the relay serves: the burn lowers the total supply.
    await x.devnet.fund('ETH', freshWallet().address, { USDC: units('100') });
    refusing = await refusingOverrides(x.devnet.chain('ETH').rpcUrl);
    const registry = x.devnet.registry();
    h = await startHarness({
      registry: {
        ...registry,
        chains: registry.chains.map((c) => (c.name === 'ETH' ? { ...c, rpcUrls: [refusing.url] } : c)),
      },
      env: x.env,
    });
  });
  after(async () => {
    await h?.close();
    refusing?.server.close();
    await x?.close();
  });

  const quote = (harness: Harness) =>
    harness.call(
      `/internal/gasless/gas-estimate?chainId=${x.devnet.chain('ETH').chainId}&token=USDC&to=${x.relayEth}&destinationChainId=${x.shop.chainId}`,
      { caller: 'service' },
    );

  it('prices the approval and the burn from the chain where the node takes overrides', async () => {
    const asked = await quote(x.h);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    expect(asked.body.data.burnGasUnits).to.not.equal('200000');
    expect(
      metricValue(await x.h.metrics(), 'chain_gasless_burn_gas_estimates_total', {
        chain: 'ETH',
        outcome: 'estimated',
      }),
    ).to.equal(1);
  });

  it('falls back to the fixed 200,000 gas where the node refuses overrides, and says so in its metric', async () => {
    const asked = await quote(h);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    expect(asked.body.data.burnGasUnits).to.equal('200000');
    const metrics = await h.metrics();
    expect(
      metricValue(metrics, 'chain_gasless_burn_gas_estimates_total', { chain: 'ETH', outcome: 'fixed' }),
    ).to.equal(1);
    expect(
      metricValue(metrics, 'chain_gasless_burn_gas_estimates_total', { chain: 'ETH', outcome: 'estimated' }),
    ).to.equal(0);
  });
});

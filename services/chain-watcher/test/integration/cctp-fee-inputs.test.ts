import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { CctpFeeInputsResponse, type ChainRegistry } from '@stablepay/contracts';
import { deadUrl, startDevnet, type Devnet } from '@stablepay/devnet';
import { startHarness, type Harness } from '../support/harness.js';

/** eth_gasPrice asked of the anvil node directly, as a decimal string. */
const nodeGasPrice = async (rpcUrl: string): Promise<string> => {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_gasPrice', params: [] }),
  });
  return BigInt(((await res.json()) as { result: string }).result).toString();
};

describe('GET /internal/cctp/fee-inputs (anvil + PostgreSQL + RabbitMQ)', function () {
  this.timeout(30_000);
  let devnet: Devnet;
  let h: Harness;

  before(async () => {
    devnet = await startDevnet({ basePort: 0, customers: 0 });
    const registry = devnet.registry();
    const dead = await deadUrl();
    // MATIC's only node is unreachable: its fee inputs cannot be read.
    const withDeadMatic: ChainRegistry = {
      ...registry,
      chains: registry.chains.map((c) => (c.name === 'MATIC' ? { ...c, rpcUrls: [dead] } : c)),
    };
    h = await startHarness({
      registry: withDeadMatic,
      env: {
        CCTP_FEE_GAS_UNITS_BY_CHAIN: '{"ETH":310000}',
        NATIVE_TOKEN_USD_PRICES: '{"ETH":"2500.125"}',
        RPC_TIMEOUT_MS: '500',
      },
    });
  });
  after(async () => {
    await h?.close();
    await devnet?.stop();
  });

  const feeInputs = (chain: string, opts = {}) =>
    h.call(`/internal/cctp/fee-inputs?destinationChain=${chain}`, { caller: 'service', ...opts });

  it('answers the chain’s gas price now, the configured gas units and the configured coin price', async () => {
    const base = devnet.chain('BASE');
    const before = await nodeGasPrice(base.rpcUrl);
    const res = await feeInputs('BASE');
    const after = await nodeGasPrice(base.rpcUrl);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(CctpFeeInputsResponse.safeParse(res.body).success).to.equal(true);
    const { gasPriceWei, ...rest } = res.body.data;
    expect([before, after]).to.include(gasPriceWei);
    expect(BigInt(gasPriceWei) > 0n).to.equal(true);
    expect(rest).to.deep.equal({
      blockchain: 'BASE',
      chainId: base.chainId,
      gasUnits: '265000',
      nativeToken: { symbol: 'ETH', decimals: 18, usdPrice: '2500.125', source: 'fixed' },
    });
    // A chain with its own gas figure uses it.
    const eth = await feeInputs('ETH');
    expect(eth.body.data).to.deep.include({ blockchain: 'ETH', gasUnits: '310000' });
  });

  it('follows the chain’s gas price as it moves', async () => {
    const base = devnet.chain('BASE');
    const raise = async (wei: bigint) => {
      await fetch(base.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'anvil_setNextBlockBaseFeePerGas',
          params: [`0x${wei.toString(16)}`],
        }),
      });
      await fetch(base.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'evm_mine', params: [] }),
      });
    };
    const calm = BigInt((await feeInputs('BASE')).body.data.gasPriceWei);
    await raise(calm * 100n);
    const res = await feeInputs('BASE');
    expect(res.body.data.gasPriceWei).to.equal(await nodeGasPrice(base.rpcUrl));
    // The next block's base fee follows the raised one down by at most 12.5% per empty block.
    expect(BigInt(res.body.data.gasPriceWei) > calm * 50n).to.equal(true);
  });

  it('answers 503 with Retry-After when the chain cannot be reached, and 400 for a chain not served', async () => {
    const down = await feeInputs('MATIC');
    expect(down.status).to.equal(503);
    expect(down.headers.get('retry-after')).to.equal('5');
    expect(down.body).to.deep.equal({
      success: false,
      error: 'The MATIC network cannot be reached; try again shortly',
      details: [],
    });
    const arb = await feeInputs('ARB');
    expect(arb.status).to.equal(400);
    expect(arb.body.details).to.deep.equal([
      { path: 'destinationChain', message: 'This deployment does not serve ARB', code: 'unknown_chain' },
    ]);
    expect((await feeInputs('DOGE')).status).to.equal(400);
  });

  it('answers services only', async () => {
    expect((await feeInputs('BASE', { caller: 'public' })).status).to.equal(401);
    expect((await feeInputs('BASE', { caller: 'api_key', merchantId: randomUUID() })).status).to.equal(403);
    expect((await feeInputs('BASE', { anonymous: true })).status).to.equal(401);
  });
});

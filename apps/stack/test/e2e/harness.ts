import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import pg from 'pg';
import { expect } from 'chai';
import { Contract, JsonRpcProvider, Wallet, parseUnits } from 'ethers';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import {
  createTestDatabase,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';
import { confirmEmailFromMail } from '../../src/mail-links.js';
import { startStack, type RunningStack } from '../../src/stack.js';
import { FREE_PORTS } from '../../src/ports.js';
import { api, waitFor, type Api } from '../support.js';

export interface StackHarness {
  stack: RunningStack;
  varDir: string;
  gw: Api;
  /** Every event the services publish, in arrival order. */
  events: Array<{ type: string; body: any }>;
  /**
   * A merchant with a wallet, a dashboard session and an API key holding the default scopes; its
   * address confirmed unless `confirm` is false.
   */
  register(email: string, opts?: { confirm?: boolean }): Promise<Merchant>;
  /** Another API key of the merchant, holding exactly `scopes`; its X-API-Key header. */
  createKey(m: Merchant, scopes: string[], name?: string): Promise<Record<string, string>>;
  /** Where the stack's notifier writes its e-mails (.eml). */
  mailDir: string;
  /** Read-only SQL against the stack's database, to observe a service's progress in tests. */
  query<T = Record<string, unknown>>(sql: string, bindings?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface Merchant {
  merchantId: string;
  bearer: Record<string, string>;
  key: Record<string, string>;
  keyId: string;
  wallet: { address: string; chainId: number; blockchain: string };
}

/** The whole stack on PostgreSQL and RabbitMQ (fresh database and vhost/prefix), devnet included. */
export const startStackHarness = async (
  env: Record<string, string> = {},
  options: { confirmations?: number; devnetPort?: number } = {},
): Promise<StackHarness> => {
  const tdb: TestDatabase = await createTestDatabase();
  const varDir = mkdtempSync(join(tmpdir(), 'sp-e2e-'));
  const amqpUrl = await testAmqpUrl();
  const prefix = testQueuePrefix();
  const stack = await startStack({
    varDir,
    databaseUrl: tdb.url,
    amqpUrl,
    amqpPrefix: prefix,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'error',
    ports: { ...FREE_PORTS, devnet: options.devnetPort ?? 0 },
    persistChains: false,
    confirmations: options.confirmations,
    env: { SCRYPT_COST: '10', ...env },
  });
  const gw = api(stack.gatewayUrl);
  const events: StackHarness['events'] = [];
  const conn = await amqp.connect(amqpUrl);
  const ch = await conn.createChannel();
  const exchange = `${prefix}stablepay.events`;
  await ch.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await ch.assertQueue('', { exclusive: true });
  await ch.bindQueue(queue, exchange, '#');
  await ch.consume(
    queue,
    (m) => {
      if (m) events.push({ type: m.fields.routingKey, body: JSON.parse(m.content.toString()) });
    },
    { noAck: true },
  );

  const mailDir = join(varDir, 'mail');
  const register: StackHarness['register'] = async (email, { confirm = true } = {}) => {
    const password = 'correct horse battery staple';
    const r = await gw.call('POST', '/auth/register', {
      body: { email, password, merchantName: 'Shop', blockchain: 'BASE' },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    // The link the notifier wrote to the stack's mail directory, followed as the merchant would.
    if (confirm) await confirmEmailFromMail(stack.gatewayUrl, mailDir, email);
    const login = await gw.call('POST', '/auth/login', { body: { email, password } });
    const bearer = { authorization: `Bearer ${login.body.data.access_token}` };
    const key = await gw.call('POST', '/api-keys', { body: { name: 'server' }, headers: bearer });
    expect(key.status).to.equal(201);
    const merchantId = (await gw.call('GET', '/auth/me', { headers: bearer })).body.data.merchant
      .id as string;
    // The chain-watcher assigns the wallet on merchant.created; the gateway learns it from wallet.assigned.
    const wallet = await waitFor(async () => {
      const w = await gw.call('GET', `/merchants/${merchantId}/wallet`);
      return w.status === 200 ? w.body.data.wallet : undefined;
    }, 'wallet assignment');
    return { merchantId, bearer, key: { 'x-api-key': key.body.data.key }, keyId: key.body.data.id, wallet };
  };

  const createKey: StackHarness['createKey'] = async (m, scopes, name = 'scoped') => {
    const key = await gw.call('POST', '/api-keys', { body: { name, scopes }, headers: m.bearer });
    expect(key.status, JSON.stringify(key.body)).to.equal(201);
    expect(key.body.data.scopes).to.have.members(scopes);
    return { 'x-api-key': key.body.data.key };
  };

  const query: StackHarness['query'] = async (sql, bindings = []) => {
    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    try {
      return (await client.query(sql, bindings)).rows;
    } finally {
      await client.end();
    }
  };

  return {
    stack,
    varDir,
    gw,
    events,
    register,
    createKey,
    mailDir,
    query,
    close: async () => {
      await conn.close().catch(() => undefined);
      await stack.stop();
      await tdb.drop();
      rmSync(varDir, { recursive: true, force: true });
    },
  };
};

/** A wallet on chain `c`, its provider kept in `providers` for the caller to destroy. */
export const walletOn = (providers: JsonRpcProvider[], c: DevnetChain, privateKey: string): Wallet => {
  const provider = new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
  providers.push(provider);
  return new Wallet(privateKey, provider);
};

/** A devnet customer pays `shop` `amount` USDC for real on BASE and the payment completes. */
export const completedPayment = async (
  h: StackHarness,
  shop: Merchant,
  provider: JsonRpcProvider,
  customerIndex: number,
  amount: string,
  customerEmail = 'payer@example.com',
) => {
  const chain = h.stack.devnet.chains.find((c) => c.name === 'BASE')!;
  const customer = h.stack.devnet.customers[customerIndex]!;
  const usdc = new Contract(chain.tokens.USDC!, fiatTokenAbi(), new Wallet(customer.privateKey, provider));
  const tx = await usdc.getFunction('transfer')(shop.wallet.address, parseUnits(amount, 6));
  await tx.wait();
  const created = await h.gw.call('POST', '/payments/create-public', {
    body: {
      merchantId: shop.merchantId,
      txHash: tx.hash,
      amount: Number(amount),
      expectedAmount: Number(amount),
      token: 'USDC',
      chainId: chain.chainId,
      fromAddress: customer.address,
      toAddress: shop.wallet.address,
      customerEmail,
    },
  });
  expect(created.status).to.equal(201);
  const id = created.body.data.paymentId as string;
  await waitFor(async () => {
    const r = await h.gw.call('GET', `/payments/api/${id}`, { headers: shop.key });
    return r.body.data?.status === 'completed';
  }, 'payment completion');
  return { id, customer };
};

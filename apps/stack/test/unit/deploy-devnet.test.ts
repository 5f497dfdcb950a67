import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import {
  createTestDatabase,
  testAmqpUrl,
  testQueuePrefix,
  type TestDatabase,
} from '@stablepay/platform/testing';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));

/** An address of this machine other than loopback, as another container would reach the devnet's. */
const outwardAddress = (): string =>
  Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? '127.0.0.1';

/**
 * A free port p such that p .. p+2 (the chains) and p+10000 .. p+10004 (their outward twins, the
 * attestation API and the gateway) were free a moment ago. All of them stay below the kernel's
 * ephemeral range (32768 up), where another test's outgoing connection could take one meanwhile.
 */
const freePortBase = async (): Promise<number> => {
  const free = (port: number) =>
    new Promise<boolean>((res) => {
      const s = createServer()
        .once('error', () => res(false))
        .listen(port, '0.0.0.0', () => s.close(() => res(true)));
    });
  for (;;) {
    const base = 12000 + Math.floor(Math.random() * 3500) * 3;
    const ports = [0, 1, 2, 10000, 10001, 10002, 10003, 10004].map((d) => base + d);
    if ((await Promise.all(ports.map(free))).every(Boolean)) return base;
  }
};

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, ms = 60_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const exited = (child: ChildProcess) =>
  new Promise<number | null>((res) =>
    child.exitCode !== null ? res(child.exitCode) : child.once('exit', res),
  );

describe('the devnet profile (deploy/devnet.mjs, deploy/devnet-env.mjs)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'devnet-profile-'));
  const host = outwardAddress();
  let devnet: ChildProcess;
  let gateway: ChildProcess | undefined;
  let db: TestDatabase;
  let base: number;
  let env: {
    CHAIN_REGISTRY: string;
    RELAYER_PRIVATE_KEYS: string;
    CCTP_ATTESTATION_URL: string;
    browser: any;
  };

  before(async () => {
    base = await freePortBase();
    devnet = spawn(process.execPath, [join(root, 'deploy/devnet.mjs')], {
      cwd: root,
      env: {
        ...process.env,
        DEVNET_DIR: dir,
        DEVNET_HOST: host,
        DEVNET_BASE_PORT: String(base),
        ATTESTATION_PORT: String(base + 10003),
      },
      stdio: 'ignore',
    });
    await waitFor(() => existsSync(join(dir, 'devnet-env.json')), 'the devnet');
    env = JSON.parse(readFileSync(join(dir, 'devnet-env.json'), 'utf8'));
    db = await createTestDatabase();
  });

  after(async () => {
    gateway?.kill('SIGKILL');
    if (devnet.exitCode === null) devnet.kill('SIGKILL');
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every chain on the outward address and the attestation API', async () => {
    const registry = JSON.parse(env.CHAIN_REGISTRY) as {
      chains: Array<{ name: string; chainId: number; rpcUrls: string[] }>;
    };
    expect(registry.chains.map((c) => c.name)).to.deep.equal(['ETH', 'BASE', 'MATIC']);
    for (const [i, chain] of registry.chains.entries()) {
      expect(chain.rpcUrls).to.deep.equal([`http://${host}:${base + i}`]);
      const res = await fetch(chain.rpcUrls[0]!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      expect(Number(((await res.json()) as { result: string }).result)).to.equal(chain.chainId);
    }
    expect(Object.keys(JSON.parse(env.RELAYER_PRIVATE_KEYS))).to.have.members(['ETH', 'BASE', 'MATIC']);
    const attestation = await fetch(`${env.CCTP_ATTESTATION_URL}/v2/messages/0?transactionHash=0x00`);
    expect(attestation.status).to.be.within(400, 499);
    expect(attestation.headers.get('content-type')).to.contain('json');
  });

  it('a service started through devnet-env.mjs runs on the devnet and tells browsers the host URLs', async () => {
    const port = base + 10004;
    gateway = spawn(
      process.execPath,
      [join(root, 'deploy/devnet-env.mjs'), 'services/gateway/dist/main.js'],
      {
        cwd: root,
        env: {
          ...process.env,
          DEVNET_DIR: dir,
          DEVNET_FOR_BROWSERS: 'true',
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: db.url,
          AMQP_URL: await testAmqpUrl(),
          AMQP_PREFIX: testQueuePrefix(),
          INTERNAL_TOKEN_SECRET: 'devnet-profile-internal-token-secret-0123',
          JWT_SECRET: 'devnet-profile-jwt-secret-0123456789-0123',
          API_KEY_PEPPER: 'devnet-profile-api-key-pepper-0123456789',
          CHAIN_NETWORK: 'testnet',
          LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    for (const stream of [gateway.stdout!, gateway.stderr!])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = gateway;
    await waitFor(async () => {
      if (started.exitCode !== null)
        throw new Error(`the gateway exited with ${started.exitCode}: ${output.slice(-2000)}`);
      return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true;
    }, 'the gateway');
    const chains = (await (await fetch(`http://127.0.0.1:${port}/chains`)).json()) as unknown;
    const text = JSON.stringify(chains);
    // The devnet's chain ids (testnet was replaced), with the host's URLs rather than the containers'.
    expect(text)
      .to.contain('31002')
      .and.contain(`http://localhost:${base + 1}`);
    if (host !== '127.0.0.1') expect(text).to.not.contain(host);
    expect(text).to.contain(`http://localhost:${base + 10003}`);
    gateway.kill('SIGTERM');
    await exited(gateway);
  });

  it('removes its environment file when it stops, so later runs without the profile ignore it', async () => {
    devnet.kill('SIGTERM');
    expect(await exited(devnet)).to.equal(0);
    expect(existsSync(join(dir, 'devnet-env.json'))).to.equal(false);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const sdk = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

/** A consumer that knows nothing of this repository: the verifier and the client, from the package alone. */
const consumer = `
import { createHmac } from 'node:crypto';
import { Stablepay, StablepayError, WebhookVerificationError } from '@stablepay/node';
const secret = process.argv[2];
const body = process.argv[3];
const ts = String(Math.floor(Date.now() / 1000));
const sig = 'sha256=' + createHmac('sha256', secret).update(ts + '.' + body).digest('hex');
const event = await Stablepay.webhooks.constructEvent(body, { 'x-service-timestamp': ts, 'x-service-signature': sig }, secret);
let refused = false;
try {
  await Stablepay.webhooks.constructEvent(body, { 'x-service-timestamp': ts, 'x-service-signature': 'sha256=' + 'é'.repeat(64) }, secret);
} catch (e) { refused = e instanceof WebhookVerificationError; }
const client = new Stablepay({ apiKey: 'sp_live_x', baseUrl: 'http://127.0.0.1:9', maxRetries: 0, timeoutMs: 2000 });
const err = await client.balance.retrieve().catch((e) => e);
console.log(JSON.stringify({ event: event.event, refused, networkError: err instanceof StablepayError && err.code }));
`;

const typedConsumer = `
import { Stablepay, type Payment, type WebhookEvent } from '@stablepay/node';
const sp = new Stablepay({ apiKey: 'k', baseUrl: 'https://x.test' });
export const amount = async (id: string): Promise<string> => (await sp.payments.retrieve(id)).amount;
export const session = () => sp.checkout.sessions.create({ amount: '10.00', return_url: 'https://shop.test/done' });
export const kind = (e: WebhookEvent): string => (e.event === 'refund.failed' ? e.data.refund_id : e.event);
export type P = Payment['status'];
`;

describe('the packed @stablepay/node', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sp-sdk-pack-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('installs into an empty folder with no dependency, and verifies and calls from plain ESM and TypeScript', () => {
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], sdk)) as Array<{
      filename: string;
      size: number;
      files: Array<{ path: string }>;
    }>;
    const tarball = join(dir, packed!.filename);
    console.log(
      `      packed: ${packed!.filename}, ${statSync(tarball).size} bytes, ${packed!.files.length} files`,
    );
    expect(packed!.files.map((f) => f.path)).to.include.members([
      'dist/index.js',
      'dist/index.d.ts',
      'README.md',
    ]);
    expect(
      packed!.files.every((f) => /^(dist\/.*\.(js|d\.ts)|README\.md|package\.json)$/.test(f.path)),
    ).to.equal(true);

    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-audit', '--no-fund', tarball], app);
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages)).to.deep.equal(['', 'node_modules/@stablepay/node']);

    writeFileSync(join(app, 'check.mjs'), consumer);
    const secret = 'whsec_' + Buffer.from('k'.repeat(32)).toString('base64');
    const body = JSON.stringify({
      event: 'payment.completed',
      timestamp: new Date().toISOString(),
      data: {},
    });
    const out = JSON.parse(
      execFileSync(process.execPath, ['check.mjs', secret, body], { cwd: app, encoding: 'utf8' }),
    );
    expect(out).to.deep.equal({ event: 'payment.completed', refused: true, networkError: 'network_error' });

    writeFileSync(join(app, 'typed.ts'), typedConsumer);
    execFileSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'false',
        '--lib',
        'es2023,dom',
        'typed.ts',
      ],
      { cwd: app, encoding: 'utf8' },
    );
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface TestCertificate {
  keyPem: string;
  certPem: string;
  /** The self-signed certificate as a file: WEBHOOK_EXTRA_CA_FILE of the notifier under test. */
  caFile: string;
}

/** Names the receivers answer to; the injected resolver maps them to 127.0.0.1. */
export const CERT_NAMES = ['localhost', 'hooks.merchant.test', 'rebind.merchant.test'];

let cached: Promise<TestCertificate> | undefined;

/** One self-signed certificate per test run, made with the openssl CLI into a temp dir. */
export const testCertificate = (): Promise<TestCertificate> =>
  (cached ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notifier-tls-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    const san = [...CERT_NAMES.map((n) => `DNS:${n}`), 'IP:127.0.0.1', 'IP:::1'].join(',');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${san}`,
    ]);
    return { keyPem: readFileSync(key, 'utf8'), certPem: readFileSync(cert, 'utf8'), caFile: cert };
  })());

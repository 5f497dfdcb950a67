import { createHmac, timingSafeEqual } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { event: string; timestamp: string; data: Record<string, any> };
}

/** The merchant's own HTTPS endpoint, with a certificate the notifier is told to trust. */
export const startReceiver = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-hook-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const received: Received[] = [];
  const server: Server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
        res.writeHead(200).end('ok');
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://localhost:${port}/hooks`,
    caFile: join(dir, 'cert.pem'),
    received,
    close: () => server.close(),
  };
};

/** The spec's rule, implemented independently of the notifier. */
export const signatureValid = (r: Received, secret: string) => {
  const ts = String(r.headers['x-service-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex')}`;
  const got = String(r.headers['x-service-signature']);
  return got.length === expected.length && timingSafeEqual(Buffer.from(got), Buffer.from(expected));
};

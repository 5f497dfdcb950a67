/**
 * The notifier's SMTP transport, as shipped (pooled connections), beside the same messages sent one
 * connection each (`?pool=false`, what it did before) as the reference, in the same run: client CPU
 * per message and messages per second, 8 in flight, to a real SMTP server in a process of its own.
 *
 *   node --import tsx bench/mail-transport.ts      (MESSAGES=400 per run, two runs of each, in turns)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@stablepay/platform';
import { createMailTransport, type MailMessage } from '@stablepay/notifier';

const MESSAGES = Number(process.env.MESSAGES ?? 400);
const IN_FLIGHT = 8;

/** A real SMTP server (smtp-server) that accepts and discards, in a child process. */
const startServer = async () => {
  const child = fork(fileURLToPath(new URL('./smtp-sink.mjs', import.meta.url)));
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  return { port, stop: () => child.kill() };
};

/** A receipt-sized message: about the size of the notifier's rendered payment e-mails. */
const message = (i: number): MailMessage => ({
  from: 'no-reply@pay.example.test',
  to: `customer-${i}@example.test`,
  subject: `Receipt: 25.00 USDC paid to Acme Shop`,
  text: 'Thank you for your payment.\n'.repeat(60),
  html: `<p>${'Thank you for your payment. '.repeat(150)}</p>`,
  messageId: `<bench-${i}-${Date.now()}@pay.example.test>`,
  template: 'payment_receipt',
});

const run = async (port: number, pooled: boolean) => {
  const logger = createLogger({ service: 'bench', level: 'error' });
  const url = `smtp://127.0.0.1:${port}?ignoreTLS=true${pooled ? '' : '&pool=false'}`;
  const transport = createMailTransport({ SMTP_URL: url, MAIL_DIR: '', MAIL_TIMEOUT_MS: 30_000 }, logger);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < MESSAGES; i += IN_FLIGHT)
    await Promise.all(Array.from({ length: IN_FLIGHT }, (_, k) => transport.send(message(i + k))));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  transport.close();
  return {
    transport: pooled ? 'pooled (shipped)' : 'one connection per message (reference)',
    'messages/s': Math.round(MESSAGES / seconds),
    'client CPU ms/message': Number(((used.user + used.system) / 1000 / MESSAGES).toFixed(3)),
  };
};

const server = await startServer();
try {
  const rows = [];
  for (const pooled of [false, true, false, true]) rows.push(await run(server.port, pooled));
  console.log(
    `\nSMTP to a local server, ${MESSAGES} messages per run, ${IN_FLIGHT} in flight, node ${process.version}`,
  );
  console.table(rows);
} finally {
  server.stop();
}

// Removes what killed or ad-hoc test runs left behind on the local servers: queues and exchanges
// with a test prefix in the default RabbitMQ vhost, and test databases in PostgreSQL. CI runs it
// before the suite; it touches only names the test helpers generate.
import { execFileSync } from 'node:child_process';
import amqp from 'amqplib';
import pg from 'pg';

const TEST_NAME = /^t[0-9a-f]{10}\./;
const list = (what) => {
  try {
    return execFileSync('rabbitmqctl', [`list_${what}`, '-q', '--no-table-headers', 'name'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
      .split('\n')
      .map((s) => s.trim())
      .filter((n) => TEST_NAME.test(n));
  } catch {
    return [];
  }
};

const amqpUrl = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const queues = list('queues');
const exchanges = list('exchanges');
if (queues.length + exchanges.length > 0) {
  const conn = await amqp.connect(amqpUrl);
  const ch = await conn.createChannel();
  for (const q of queues) await ch.deleteQueue(q);
  for (const x of exchanges) await ch.deleteExchange(x);
  await conn.close();
}

const admin = new pg.Client({
  connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
});
await admin.connect();
const { rows } = await admin.query("select datname from pg_database where datname like 'sp\\_test\\_%'");
for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
await admin.end();
console.log(
  `[ci] swept ${queues.length} queues, ${exchanges.length} exchanges, ${rows.length} databases left by earlier test runs`,
);

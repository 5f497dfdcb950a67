// Runs one service's database migrations and exits: the step before a new version takes traffic
// (a Kubernetes init container, a one-shot compose service).
//
//   node deploy/migrate.mjs payments        # DATABASE_URL (and optionally DATABASE_SCHEMA) set
//
// Replicas starting together each run it: a PostgreSQL advisory lock keyed by the schema lets one
// migrate while the others wait, then find nothing left to do. Without it, two first starts race
// on creating knex's own bookkeeping tables (and may insert two lock rows, which locks the
// migrations for good). The service still runs `migrate` at start; it then has nothing to do.
import { createHash } from 'node:crypto';

const services = {
  gateway: ['@stablepay/gateway', 'gatewayConfigSchema', 'gatewayMigrations'],
  payments: ['@stablepay/payments', 'paymentsConfigSchema', 'paymentsMigrations'],
  'chain-watcher': ['@stablepay/chain-watcher', 'chainWatcherConfigSchema', 'chainWatcherMigrations'],
  refunds: ['@stablepay/refunds', 'refundsConfigSchema', 'refundsMigrations'],
  invoicing: ['@stablepay/invoicing', 'invoicingConfigSchema', 'invoicingMigrations'],
  notifier: ['@stablepay/notifier', 'notifierConfigSchema', 'notifierMigrations'],
};

const name = process.argv[2];
const entry = services[name];
if (!entry) {
  console.error(`usage: node deploy/migrate.mjs <${Object.keys(services).join('|')}>`);
  process.exit(2);
}
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL: required to run migrations');
  process.exit(1);
}

const [pkg, schemaExport, migrationsExport] = entry;
const { createDatabase, migrate } = await import('@stablepay/platform');
const mod = await import(pkg);
// The schema the service itself would use: DATABASE_SCHEMA, else its config's default.
const schema = mod[schemaExport].shape.DATABASE_SCHEMA.parse(process.env.DATABASE_SCHEMA || undefined);
// Two 32-bit halves of a digest of the schema name: one lock per service database and schema.
const digest = createHash('sha256').update(`stablepay:migrate:${schema}`).digest();
const lockKey = [digest.readInt32BE(0), digest.readInt32BE(4)];

// `create schema if not exists` itself can collide with a replica's (a unique violation): retry.
const connect = async (attempt = 1) => {
  try {
    return await createDatabase({ url, schema, poolMax: 2 });
  } catch (err) {
    if (err?.code !== '23505' || attempt >= 5) throw err;
    return connect(attempt + 1);
  }
};
const db = await connect();
const started = Date.now();
try {
  await db.transaction(async (trx) => {
    // Held by this transaction's connection until it ends; the migrations run on the other one.
    await trx.raw('select pg_advisory_xact_lock(?, ?)', lockKey);
    await migrate(db, schema, mod[migrationsExport]);
  });
  process.stdout.write(
    JSON.stringify({
      level: 'info',
      service: name,
      message: 'migrations applied',
      schema,
      ms: Date.now() - started,
    }) + '\n',
  );
} catch (err) {
  console.error(
    JSON.stringify({ level: 'error', service: name, message: `migrations failed: ${err.message}` }),
  );
  process.exitCode = 1;
} finally {
  await db.destroy();
}

import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { EmbeddedPostgres } from './embedded.js';
import { prepareStatementsOn } from './prepared.js';

// BIGINT and NUMERIC come back as strings (exact); never let the driver turn money into a float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent, `embedded` is used. */
  url?: string;
  embedded?: EmbeddedPostgres;
  /** The schema holding this service's tables. */
  schema: string;
  poolMax?: number;
  /**
   * The hot statements (preparedRaw) run as named prepared statements; off behind a pooler that
   * hands a session's statements to other connections (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
}

/** What a repository function queries through: the pool, or the transaction it is part of. */
export type Db = Knex | Knex.Transaction;

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down?(db: Knex): Promise<void>;
}

export const createDatabase = async (opts: DatabaseOptions): Promise<Knex> => {
  let db: Knex;
  if (opts.url) {
    db = knexFactory({
      client: 'pg',
      connection: { connectionString: opts.url, application_name: opts.schema },
      searchPath: [opts.schema, 'public'],
      pool: { min: 0, max: opts.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
    if (opts.preparedStatements !== false) prepareStatementsOn(db);
  } else if (opts.embedded) {
    db = opts.embedded.knexFor(opts.schema);
  } else {
    throw new Error('createDatabase needs a PostgreSQL URL or an embedded instance');
  }
  await db.raw(`create schema if not exists "${opts.schema}"`);
  return db;
};

/** Runs a service's migrations, kept as code so they ship inside the build. */
export const migrate = async (db: Knex, schema: string, migrations: Migration[]): Promise<void> => {
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => migrations,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      up: (k: Knex) => m.up(k),
      down: (k: Knex) => (m.down ? m.down(k) : Promise.resolve()),
    }),
  };
  await db.migrate.latest({ migrationSource: source, schemaName: schema, tableName: 'knex_migrations' });
};

/** PostgreSQL's unique_violation, raised by pg and PGlite alike. */
export const isUniqueViolation = (err: unknown, constraint?: string): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
};

export const pingDatabase = async (db: Knex): Promise<void> => {
  await db.raw('select 1');
};

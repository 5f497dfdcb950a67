import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';

const require = createRequire(import.meta.url);
// knex-pglite is CommonJS and extends knex's own PostgreSQL client.
const ClientPgLite = require('knex-pglite') as new (config: Knex.Config) => KnexClient;

interface KnexClient {
  acquireConnection(): Promise<PgliteConnection>;
  releaseConnection(connection: PgliteConnection): Promise<void>;
  destroyRawConnection(connection: PgliteConnection): Promise<void>;
}
interface PgliteConnection {
  query(sql: string): Promise<unknown>;
}

/** A FIFO lock: PGlite has one session, so one service at a time may hold it. */
class SessionLock {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

/**
 * One PGlite instance for the whole embedded stack (initdb costs seconds and most of a gigabyte), with
 * a schema per service. Each service gets its own knex whose every query or transaction holds the
 * single session and sets the service's search_path first, so services cannot see each other's
 * uncommitted work or tables.
 */
export class EmbeddedPostgres {
  private readonly lock = new SessionLock();
  private constructor(readonly pglite: PGlite) {}

  static async open(dataDir?: string): Promise<EmbeddedPostgres> {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const pglite = dataDir ? new PGlite(dataDir) : new PGlite();
    await pglite.waitReady;
    return new EmbeddedPostgres(pglite);
  }

  knexFor(schema: string): Knex {
    const { pglite, lock } = this;
    const held = new WeakMap<object, () => void>();
    class SchemaClient extends ClientPgLite {
      override async acquireConnection(): Promise<PgliteConnection> {
        const release = await lock.acquire();
        try {
          const connection = await super.acquireConnection();
          await connection.query(`set search_path to "${schema}", public`);
          held.set(connection, release);
          return connection;
        } catch (err) {
          release();
          throw err;
        }
      }
      override async releaseConnection(connection: PgliteConnection): Promise<void> {
        await super.releaseConnection(connection);
        const release = held.get(connection);
        held.delete(connection);
        release?.();
      }
      // The instance is shared; closing it is the owner's job, not one service's.
      override async destroyRawConnection(): Promise<void> {}
    }
    return knexFactory({
      client: SchemaClient as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: () => ({ pglite }) as unknown as Knex.StaticConnectionConfig,
      acquireConnectionTimeout: 60_000,
    });
  }

  async close(): Promise<void> {
    await this.pglite.close();
  }
}

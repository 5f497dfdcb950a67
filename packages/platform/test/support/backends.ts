import type { Knex } from 'knex';
import { AmqpBus } from '../../src/messaging/amqp-bus.js';
import type { EventBus } from '../../src/messaging/bus.js';
import { InProcessBus } from '../../src/messaging/in-process-bus.js';
import { createDatabase } from '../../src/db/database.js';
import { EmbeddedPostgres } from '../../src/db/embedded.js';
import { createTestDatabase, quietLogger, testAmqpUrl, testQueuePrefix } from '../../src/testing/backends.js';

export interface BusBackend {
  name: string;
  create(): Promise<{ bus: EventBus; prefix: string; reopen(): Promise<EventBus> }>;
}

/** Every broker-facing test runs against RabbitMQ and against the in-process bus. */
export const busBackends: BusBackend[] = [
  {
    name: 'RabbitMQ',
    async create() {
      const url = await testAmqpUrl();
      const prefix = testQueuePrefix();
      const make = async () => {
        const bus = new AmqpBus({ url, prefix, logger: quietLogger() });
        await bus.connect();
        return bus;
      };
      return { bus: await make(), prefix, reopen: make };
    },
  },
  {
    name: 'in-process bus',
    async create() {
      const bus = new InProcessBus();
      return { bus, prefix: '', reopen: async () => bus };
    },
  },
];

export interface DbEnvironment {
  /** A knex bound to `schema` in this environment's one database. */
  open(schema: string): Promise<Knex>;
  close(): Promise<void>;
}

export interface DbBackend {
  name: string;
  create(): Promise<DbEnvironment>;
}

/** Every repository test runs against PostgreSQL and against embedded PGlite. */
export const dbBackends: DbBackend[] = [
  {
    name: 'PostgreSQL',
    async create() {
      const tdb = await createTestDatabase();
      const opened: Knex[] = [];
      return {
        open: async (schema) => {
          const db = await createDatabase({ url: tdb.url, schema });
          opened.push(db);
          return db;
        },
        close: async () => {
          for (const db of opened) await db.destroy();
          await tdb.drop();
        },
      };
    },
  },
  {
    name: 'PGlite',
    async create() {
      const embedded = await EmbeddedPostgres.open();
      const opened: Knex[] = [];
      return {
        open: async (schema) => {
          const db = await createDatabase({ embedded, schema });
          opened.push(db);
          return db;
        },
        close: async () => {
          for (const db of opened) await db.destroy();
          await embedded.close();
        },
      };
    },
  },
];

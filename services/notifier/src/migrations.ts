import type { Knex } from 'knex';
import {
  alterTableMigration,
  inboxMigration,
  merchantContactColumns,
  merchantSettingsVersionColumn,
  outboxMigration,
  timestampMs,
  type Migration,
} from '@stablepay/platform';

export const ENDPOINTS = 'webhook_endpoints';
export const EVENTS = 'webhook_events';
export const DELIVERIES = 'webhook_deliveries';
export const ATTEMPTS = 'webhook_attempts';
export const MERCHANTS = 'merchants';
export const PAYMENT_CUSTOMERS = 'payment_customers';
export const EMAILS = 'emails';

/** Endpoints, and every deliverable event once. */
const createEndpointsAndEvents = async (db: Knex): Promise<void> => {
  await db.schema.createTable(ENDPOINTS, (t) => {
    t.uuid('id').primary();
    t.uuid('merchant_id').notNullable();
    t.text('url').notNullable();
    t.jsonb('events').notNullable();
    t.text('description');
    // AES-256-GCM under WEBHOOK_SECRET_KEK; the plaintext never lands here.
    t.text('secret_sealed').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('failure_count').notNullable().defaultTo(0);
    timestampMs(t, 'disabled_at');
    t.text('disabled_reason');
    timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
    timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
  });
  await db.raw(`create index webhook_endpoints_merchant_idx on ${ENDPOINTS} (merchant_id, created_at)`);

  // Every deliverable event once, with the exact body that is sent (replay and redelivery re-send it).
  await db.schema.createTable(EVENTS, (t) => {
    t.uuid('id').primary();
    t.uuid('merchant_id').notNullable();
    t.text('type').notNullable();
    t.text('body').notNullable();
    timestampMs(t, 'occurred_at').notNullable();
    t.boolean('is_test').notNullable().defaultTo(false);
    timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
  });
  await db.raw(`create index webhook_events_merchant_idx on ${EVENTS} (merchant_id, occurred_at)`);
};

/** Deliveries: one event to one endpoint. */
const createDeliveries = async (db: Knex): Promise<void> => {
  // One delivery = one event to one endpoint, with its chain of attempts.
  await db.schema.createTable(DELIVERIES, (t) => {
    t.uuid('id').primary();
    t.uuid('endpoint_id').notNullable().references('id').inTable(ENDPOINTS).onDelete('CASCADE');
    t.uuid('event_id').notNullable().references('id').inTable(EVENTS).onDelete('CASCADE');
    t.uuid('merchant_id').notNullable();
    t.text('trigger').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
    timestampMs(t, 'completed_at');
    t.check(`trigger in ('event', 'test', 'redeliver', 'replay')`, [], 'webhook_deliveries_trigger_check');
    t.check(`status in ('pending', 'succeeded', 'failed')`, [], 'webhook_deliveries_status_check');
  });
  // The idempotency of event fan-out: a redelivered message cannot add a second delivery.
  await db.raw(
    `create unique index webhook_deliveries_event_once on ${DELIVERIES} (endpoint_id, event_id) where trigger = 'event'`,
  );
  await db.raw(`create index webhook_deliveries_endpoint_event_idx on ${DELIVERIES} (endpoint_id, event_id)`);
};

/** Attempts: the delivery log and the work queue. */
const createAttempts = async (db: Knex): Promise<void> => {
  // One attempt = one HTTP request (the delivery log); pending rows are the work queue.
  await db.schema.createTable(ATTEMPTS, (t) => {
    t.uuid('id').primary();
    t.uuid('delivery_id').notNullable().references('id').inTable(DELIVERIES).onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('id').inTable(ENDPOINTS).onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.integer('attempt').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    timestampMs(t, 'scheduled_at').notNullable().defaultTo(db.fn.now());
    timestampMs(t, 'locked_until');
    t.uuid('lease_token');
    timestampMs(t, 'started_at');
    timestampMs(t, 'finished_at');
    t.integer('response_status');
    t.integer('response_time_ms');
    t.text('error');
    t.text('response_body_excerpt');
    timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
    t.unique(['delivery_id', 'attempt'], { indexName: 'webhook_attempts_number_once' });
    t.check(`status in ('pending', 'succeeded', 'failed')`, [], 'webhook_attempts_status_check');
  });
  // The work queue, per endpoint: the claim walks the endpoints with pending attempts through it.
  await db.raw(
    `create index webhook_attempts_queue_idx on ${ATTEMPTS} (endpoint_id, scheduled_at) where status = 'pending'`,
  );
  await db.raw(
    `create index webhook_attempts_log_idx on ${ATTEMPTS} (endpoint_id, created_at desc, id desc)`,
  );
};

const webhooksMigration: Migration = {
  name: '0001_webhooks',
  async up(db) {
    await createEndpointsAndEvents(db);
    await createDeliveries(db);
    await createAttempts(db);
  },
};

const mailMigration: Migration = {
  name: '0002_mail',
  async up(db) {
    await db.schema.createTable(MERCHANTS, (t) => {
      merchantContactColumns(t);
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
    });
    // refund.completed does not carry the customer's address: it is kept from payment.completed.
    await db.schema.createTable(PAYMENT_CUSTOMERS, (t) => {
      t.uuid('payment_id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('customer_email').notNullable();
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
    });
    // The e-mail outbox: rendered in the event's transaction, sent by a worker.
    await db.schema.createTable(EMAILS, (t) => {
      t.uuid('id').primary();
      t.uuid('event_id').notNullable();
      t.text('template').notNullable();
      t.text('recipient').notNullable();
      t.uuid('merchant_id');
      t.text('subject').notNullable();
      t.text('text_body').notNullable();
      t.text('html_body').notNullable();
      t.text('message_id').notNullable();
      t.text('status').notNullable().defaultTo('pending');
      t.integer('attempts').notNullable().defaultTo(0);
      timestampMs(t, 'next_attempt_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'locked_until');
      t.uuid('lease_token');
      t.text('last_error');
      timestampMs(t, 'sent_at');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      t.unique(['event_id', 'template', 'recipient'], { indexName: 'emails_once' });
      t.check(`status in ('pending', 'sent', 'failed')`, [], 'emails_status_check');
    });
    await db.raw(`create index emails_due_idx on ${EMAILS} (next_attempt_at) where status = 'pending'`);
  },
};

// What to attach, fetched when the message is sent (never stored here): `{kind, id, fileName}`.
const attachmentsMigration = alterTableMigration('0003_email_attachments', EMAILS, (t) => {
  t.jsonb('attachment');
});

const endpointRequestKeysMigration: Migration = {
  name: '0004_endpoint_request_keys',
  async up(db) {
    // The client's Idempotency-Key, forwarded by the gateway, and the fingerprint of the request it
    // named: a retry after an answer that never arrived finds the endpoint it made.
    await db.schema.alterTable(ENDPOINTS, (t) => {
      t.text('request_key');
      t.text('request_fingerprint');
    });
    await db.raw(
      `create unique index webhook_endpoints_merchant_request_key_idx on ${ENDPOINTS} (merchant_id, request_key) where request_key is not null`,
    );
  },
};

// Merchants known before confirmation existed never had to confirm: true for them.
const merchantEmailConfirmedMigration = alterTableMigration(
  '0005_merchant_email_confirmed',
  MERCHANTS,
  (t) => {
    t.boolean('email_confirmed').notNullable().defaultTo(true);
  },
);

// merchant.settings_updated, projected: a name the merchant changed, and the version it came with.
const merchantSettingsVersionMigration = alterTableMigration(
  '0006_merchant_settings_version',
  MERCHANTS,
  merchantSettingsVersionColumn,
);

// The language each reader is written to: the merchant's (from its settings) and the customer's (the
// checkout page's, with the payment), so a refund's e-mail speaks the language the receipt did.
const languagesMigration: Migration = {
  name: '0007_languages',
  async up(db) {
    await db.schema.alterTable(MERCHANTS, (t) => {
      t.text('language');
    });
    await db.schema.alterTable(PAYMENT_CUSTOMERS, (t) => {
      t.text('language');
    });
  },
};

/**
 * Room on each page for a row's next version, so that the updates a delivery goes through can be
 * HOT (no new index entries): an attempt's lease (it changes no indexed column while the attempt
 * stays pending) and a delivery's end. Without it every page is filled on insert and each of those
 * updates writes a new entry in every index of the table. Pages already written keep their fill.
 */
const hotUpdatesMigration: Migration = {
  name: '0008_webhook_hot_updates',
  async up(db) {
    await db.raw(`alter table ${ATTEMPTS} set (fillfactor = 60)`);
    await db.raw(`alter table ${DELIVERIES} set (fillfactor = 60)`);
  },
};

export const notifierMigrations: Migration[] = [
  inboxMigration,
  webhooksMigration,
  mailMigration,
  attachmentsMigration,
  endpointRequestKeysMigration,
  // Last, as it came last: databases made before the notifier published anything get it now.
  outboxMigration,
  merchantEmailConfirmedMigration,
  merchantSettingsVersionMigration,
  languagesMigration,
  hotUpdatesMigration,
];

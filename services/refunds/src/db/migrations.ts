import { RefundReason, RefundStatus } from '@stablepay/contracts';
import {
  alterTableMigration,
  inboxMigration,
  outboxMigration,
  sqlInList,
  timestampMs,
  type Migration,
} from '@stablepay/platform';

export const PAYMENTS = 'refundable_payments';
export const REFUNDS = 'refunds';

const paymentsMigration: Migration = {
  name: '0001_refundable_payments',
  async up(db) {
    // A projection of payment.completed: the payments this service may refund, never read from
    // the payments database. `blockchain` is the chain the merchant received the funds on.
    await db.schema.createTable(PAYMENTS, (t) => {
      t.uuid('payment_id').primary();
      t.uuid('merchant_id').notNullable();
      t.decimal('amount', 20, 6).notNullable();
      t.text('currency').notNullable();
      t.text('status').notNullable();
      t.text('blockchain').notNullable();
      t.text('from_address').notNullable();
      t.text('tx_hash').notNullable();
      timestampMs(t, 'payment_created_at').notNullable();
      timestampMs(t, 'completed_at').notNullable();
      timestampMs(t, 'projected_at').notNullable().defaultTo(db.fn.now());
    });
  },
};

const refundsMigration: Migration = {
  name: '0002_refunds',
  async up(db) {
    await db.schema.createTable(REFUNDS, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      t.uuid('payment_id').notNullable().references('payment_id').inTable(PAYMENTS);
      t.decimal('amount', 20, 6).notNullable();
      t.text('currency').notNullable();
      t.text('status').notNullable();
      t.text('destination_address').notNullable();
      t.text('blockchain').notNullable();
      t.text('reason').notNullable();
      t.text('note');
      t.text('tx_hash');
      t.text('failure_reason');
      // Set by the dispatcher when the merchant wallet last held too little of the token.
      t.boolean('waiting_for_funds').notNullable().defaultTo(false);
      // The dispatcher's lease on a pending refund, and its backoff when the balance was unknown.
      timestampMs(t, 'dispatch_not_before');
      t.integer('dispatch_failures').notNullable().defaultTo(0);
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'processing_at');
      timestampMs(t, 'completed_at');
      timestampMs(t, 'failed_at');
      timestampMs(t, 'cancelled_at');
      t.check(`status in (${sqlInList(RefundStatus.options)})`, [], 'refunds_status_check');
      t.check(`reason in (${sqlInList(RefundReason.options)})`, [], 'refunds_reason_check');
      t.check('amount > 0', [], 'refunds_amount_positive');
    });
    await db.raw(
      `create index refunds_merchant_created_idx on ${REFUNDS} (merchant_id, created_at desc, id)`,
    );
    await db.raw(`create index refunds_payment_idx on ${REFUNDS} (payment_id, status)`);
    await db.raw(`create index refunds_merchant_token_idx on ${REFUNDS} (merchant_id, currency, status)`);
    await db.raw(`create index refunds_pending_idx on ${REFUNDS} (created_at) where status = 'pending'`);
  },
};

const refundRequestKeysMigration: Migration = {
  name: '0003_refund_request_keys',
  async up(db) {
    // The client's Idempotency-Key, forwarded by the gateway: a retry after an answer that never
    // arrived (the gateway timed out, a replica died after commit) finds the refund it made.
    await db.schema.alterTable(REFUNDS, (t) => {
      t.text('request_key');
    });
    await db.raw(
      `create unique index refunds_merchant_request_key_idx on ${REFUNDS} (merchant_id, request_key) where request_key is not null`,
    );
  },
};

// The correlation id of the request that asked for the refund: the dispatcher's transfer
// command, made later by a background pass, carries it on to the chain-watcher and back.
const refundCorrelationMigration = alterTableMigration('0004_refund_correlation', REFUNDS, (t) => {
  t.text('correlation_id');
});

// The fingerprint of the request that named the key: the key reused with another body is
// refused. Refunds made before it have none and are taken as the same request.
const refundRequestFingerprintsMigration = alterTableMigration(
  '0005_refund_request_fingerprints',
  REFUNDS,
  (t) => {
    t.text('request_fingerprint');
  },
);

/**
 * What the chain showed reached the merchant wallet: the refund ceiling. Rows projected before it
 * was kept have none, and are held to their amount as before.
 */
const receivedAmountMigration = alterTableMigration('0006_refundable_received_amount', PAYMENTS, (t) => {
  t.decimal('received_amount', 20, 6);
});

/** In order; each runs once per database. */
export const refundsMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  paymentsMigration,
  refundsMigration,
  refundRequestKeysMigration,
  refundCorrelationMigration,
  refundRequestFingerprintsMigration,
  receivedAmountMigration,
];

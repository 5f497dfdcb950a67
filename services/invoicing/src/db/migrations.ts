import type { Knex } from 'knex';
import { InvoiceLanguage, InvoiceStatus, TaxCase, WithdrawalStatus } from '@stablepay/contracts';
import {
  alterTableMigration,
  inboxMigration,
  merchantContactColumns,
  merchantSettingsVersionColumn,
  outboxMigration,
  sqlInList,
  timestampMs,
  type Migration,
} from '@stablepay/platform';

export const MERCHANTS = 'merchants';
export const BILLING_PROFILES = 'billing_profiles';
export const REFUNDS_IN_FLIGHT = 'refunds_in_flight';
export const WITHDRAWALS = 'withdrawals';
export const INVOICE_SEQUENCES = 'invoice_sequences';
export const INVOICES = 'invoices';
export const EUR_RATES = 'eur_rates';
export const WITHDRAWAL_ADDRESSES = 'withdrawal_addresses';

/** The states of one of a withdrawal's two transfers. */
export const LEG_STATES = ['requested', 'submitted', 'confirmed', 'failed'] as const;

const money = (t: Knex.CreateTableBuilder, name: string) => t.decimal(name, 20, 6);

const merchantsMigration: Migration = {
  name: '0001_merchants_and_billing',
  async up(db) {
    // merchant.created, projected: the name an invoice falls back to before a billing profile exists.
    await db.schema.createTable(MERCHANTS, (t) => {
      merchantContactColumns(t);
      t.text('blockchain').notNullable();
      timestampMs(t, 'projected_at').notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable(BILLING_PROFILES, (t) => {
      t.uuid('merchant_id').primary();
      t.text('legal_name').notNullable();
      t.text('address_line1').notNullable();
      t.text('address_line2');
      t.text('postal_code').notNullable();
      t.text('city').notNullable();
      t.text('country').notNullable();
      t.text('vat_number');
      t.text('language').notNullable();
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      t.check(`language in (${sqlInList(InvoiceLanguage.options)})`, [], 'billing_language_check');
    });
  },
};

const refundsMigration: Migration = {
  name: '0002_refunds_in_flight',
  async up(db) {
    // refund.* projected: what the merchant wallet still owes refunds, held back from withdrawals.
    await db.schema.createTable(REFUNDS_IN_FLIGHT, (t) => {
      t.uuid('refund_id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('currency').notNullable();
      t.text('blockchain').notNullable();
      money(t, 'amount').notNullable();
      // null while the refund may still send; its end (completed, failed, cancelled) otherwise.
      t.text('outcome');
      timestampMs(t, 'closed_at');
    });
    await db.raw(
      `create index refunds_in_flight_merchant_idx on ${REFUNDS_IN_FLIGHT} (merchant_id, currency, blockchain)`,
    );
  },
};

const withdrawalsMigration: Migration = {
  name: '0003_withdrawals',
  async up(db) {
    await db.schema.createTable(WITHDRAWALS, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      t.text('currency').notNullable();
      t.text('blockchain').notNullable();
      t.text('destination_address').notNullable();
      t.text('treasury_address').notNullable();
      money(t, 'gross_amount').notNullable();
      money(t, 'fee_amount').notNullable();
      money(t, 'net_amount').notNullable();
      // The policy the fee was computed with, kept for the invoice.
      t.decimal('fee_rate', 10, 6).notNullable();
      t.text('status').notNullable();
      t.text('failure_reason');
      // The two transfers: net to the destination, fee to the treasury.
      t.text('net_state').notNullable().defaultTo('requested');
      t.text('net_tx_hash');
      timestampMs(t, 'net_confirmed_at');
      t.text('fee_state').notNullable().defaultTo('requested');
      t.text('fee_tx_hash');
      timestampMs(t, 'fee_confirmed_at');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'updated_at').notNullable().defaultTo(db.fn.now());
      timestampMs(t, 'processing_at');
      timestampMs(t, 'completed_at');
      timestampMs(t, 'failed_at');
      t.check(`status in (${sqlInList(WithdrawalStatus.options)})`, [], 'withdrawals_status_check');
      t.check(`net_state in (${sqlInList(LEG_STATES)})`, [], 'withdrawals_net_state_check');
      t.check(`fee_state in (${sqlInList(LEG_STATES)})`, [], 'withdrawals_fee_state_check');
      t.check(
        'net_amount > 0 and fee_amount >= 0 and gross_amount = net_amount + fee_amount',
        [],
        'withdrawals_split',
      );
    });
    await db.raw(
      `create index withdrawals_merchant_created_idx on ${WITHDRAWALS} (merchant_id, created_at desc, id)`,
    );
    await db.raw(
      `create index withdrawals_merchant_token_idx on ${WITHDRAWALS} (merchant_id, currency, blockchain)`,
    );
  },
};

const invoicesMigration: Migration = {
  name: '0004_invoices',
  async up(db) {
    // One row per prefix and year; its increment is locked until the issuing transaction ends, so
    // numbers are handed out in commit order and a rolled-back issue gives its number back.
    await db.schema.createTable(INVOICE_SEQUENCES, (t) => {
      t.text('prefix').notNullable();
      t.integer('year').notNullable();
      t.integer('last_value').notNullable();
      t.primary(['prefix', 'year']);
    });
    await db.schema.createTable(INVOICES, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      t.uuid('withdrawal_id').notNullable().references('id').inTable(WITHDRAWALS);
      t.text('invoice_number').notNullable().unique();
      t.text('prefix').notNullable();
      t.integer('year').notNullable();
      t.integer('sequence').notNullable();
      t.text('status').notNullable();
      timestampMs(t, 'issued_at').notNullable();
      t.text('currency').notNullable();
      t.text('blockchain').notNullable();
      money(t, 'gross_amount').notNullable();
      money(t, 'service_fee').notNullable();
      money(t, 'net_amount').notNullable();
      t.decimal('fee_rate', 10, 6).notNullable();
      // The fee in EUR at the recorded rate (EUR per token) of the recorded day and source.
      t.decimal('eur_rate', 20, 6).notNullable();
      // `YYYY-MM-DD` as text: both drivers hand it back unchanged, with no time zone to shift it.
      t.text('eur_rate_date').notNullable();
      t.text('eur_rate_source').notNullable();
      t.decimal('service_fee_eur', 20, 2).notNullable();
      t.text('tax_case').notNullable();
      t.integer('tax_rate_bp').notNullable();
      t.text('vat_country');
      money(t, 'tax_amount').notNullable();
      t.decimal('tax_amount_eur', 20, 2).notNullable();
      t.text('language').notNullable();
      // Seller and customer as they were at issue: an invoice is never edited afterwards.
      t.jsonb('seller').notNullable();
      t.jsonb('customer').notNullable();
      t.text('destination_address').notNullable();
      t.text('net_tx_hash').notNullable();
      t.text('fee_tx_hash').notNullable();
      timestampMs(t, 'withdrawal_completed_at').notNullable();
      t.uuid('rectifies_invoice_id').references('id').inTable(INVOICES).unique();
      t.uuid('rectified_by_invoice_id');
      t.text('rectification_reason');
      t.text('pdf_key').notNullable();
      timestampMs(t, 'pdf_stored_at');
      // The PDF worker's lease on a row whose PDF is not stored yet.
      timestampMs(t, 'pdf_lease_until');
      timestampMs(t, 'created_at').notNullable().defaultTo(db.fn.now());
      t.unique(['prefix', 'year', 'sequence']);
      t.check(`status in (${sqlInList(InvoiceStatus.options)})`, [], 'invoices_status_check');
      t.check(`tax_case in (${sqlInList(TaxCase.options)})`, [], 'invoices_tax_case_check');
    });
    // Exactly one invoice is first issued for a withdrawal; rectifying ones follow it.
    await db.raw(
      `create unique index invoices_one_per_withdrawal on ${INVOICES} (withdrawal_id) where rectifies_invoice_id is null`,
    );
    await db.raw(`create index invoices_merchant_issued_idx on ${INVOICES} (merchant_id, issued_at desc)`);
    await db.raw(
      `create index invoices_pdf_pending_idx on ${INVOICES} (created_at) where pdf_stored_at is null`,
    );
  },
};

const ratesMigration: Migration = {
  name: '0005_eur_rates',
  async up(db) {
    // Reference rates fetched ahead of need, so issuing an invoice never waits on the feed.
    await db.schema.createTable(EUR_RATES, (t) => {
      t.text('currency').notNullable();
      t.text('rate_date').notNullable();
      t.decimal('eur_per_unit', 20, 6).notNullable();
      t.text('source').notNullable();
      timestampMs(t, 'fetched_at').notNullable().defaultTo(db.fn.now());
      t.primary(['currency', 'rate_date']);
    });
  },
};

const withdrawalRequestKeysMigration: Migration = {
  name: '0006_withdrawal_request_keys',
  async up(db) {
    // The client's Idempotency-Key, forwarded by the gateway: a retry after an answer that never
    // arrived (the gateway timed out, a replica died after commit) finds the withdrawal it made.
    await db.schema.alterTable(WITHDRAWALS, (t) => {
      t.text('request_key');
    });
    await db.raw(
      `create unique index withdrawals_merchant_request_key_idx on ${WITHDRAWALS} (merchant_id, request_key) where request_key is not null`,
    );
  },
};

// The fingerprint of the request that named the key: the key reused with another body is
// refused. Withdrawals made before it have none and are taken as the same request.
const withdrawalRequestFingerprintsMigration = alterTableMigration(
  '0007_withdrawal_request_fingerprints',
  WITHDRAWALS,
  (t) => {
    t.text('request_fingerprint');
  },
);

// merchant.email_confirmed, projected: withdrawals wait for it. Merchants projected before
// confirmation existed never had to confirm, so they count as confirmed.
const merchantEmailConfirmedMigration = alterTableMigration(
  '0008_merchant_email_confirmed',
  MERCHANTS,
  (t) => {
    t.boolean('email_confirmed').notNullable().defaultTo(true);
  },
);

const withdrawalAddressesMigration: Migration = {
  name: '0009_withdrawal_addresses',
  async up(db) {
    // The merchant's address book: the only places withdrawals may go, each after its hold.
    await db.schema.createTable(WITHDRAWAL_ADDRESSES, (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable();
      // EIP-55 checksummed, as shown; matched lower-cased.
      t.text('address').notNullable();
      t.text('label').notNullable();
      timestampMs(t, 'created_at').notNullable();
      timestampMs(t, 'usable_from').notNullable();
      timestampMs(t, 'removed_at');
      t.uuid('added_by_user_id').notNullable();
      t.uuid('removed_by_user_id');
      t.check('usable_from >= created_at', [], 'withdrawal_addresses_hold_check');
    });
    // One live entry per address: a concurrent second add is a unique violation, never a duplicate.
    await db.raw(
      `create unique index withdrawal_addresses_live_idx on ${WITHDRAWAL_ADDRESSES} (merchant_id, lower(address)) where removed_at is null`,
    );
  },
};

/** In order; each runs once per database. */
// merchant.settings_updated, projected: a name the merchant changed, and the version it came with.
const merchantSettingsVersionMigration = alterTableMigration(
  '0010_merchant_settings_version',
  MERCHANTS,
  merchantSettingsVersionColumn,
);

export const invoicingMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  merchantsMigration,
  refundsMigration,
  withdrawalsMigration,
  invoicesMigration,
  ratesMigration,
  withdrawalRequestKeysMigration,
  withdrawalRequestFingerprintsMigration,
  merchantEmailConfirmedMigration,
  withdrawalAddressesMigration,
  merchantSettingsVersionMigration,
];

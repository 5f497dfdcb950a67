import { inboxMigration, outboxMigration, type Migration } from '@stablepay/platform';

const accounts: Migration = {
  name: '0001_accounts',
  async up(db) {
    await db.schema.createTable('merchants', (t) => {
      t.uuid('id').primary();
      t.text('public_id').notNullable().unique();
      t.text('name').notNullable();
      t.text('blockchain').notNullable();
      t.specificType('accepted_currencies', 'text[]').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable('users', (t) => {
      t.uuid('id').primary();
      t.text('email').notNullable().unique();
      t.text('password_hash').notNullable();
      t.uuid('merchant_id').notNullable().references('id').inTable('merchants');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.schema.createTable('api_keys', (t) => {
      t.uuid('id').primary();
      t.uuid('merchant_id').notNullable().references('id').inTable('merchants');
      t.text('name').notNullable();
      // HMAC-SHA256(pepper, key), hex; the key itself is never stored.
      t.text('key_digest').notNullable().unique();
      t.text('last4').notNullable();
      t.uuid('created_by').references('id').inTable('users');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
      t.index(['merchant_id']);
    });
    await db.schema.createTable('refresh_tokens', (t) => {
      t.uuid('id').primary();
      // Every rotation stays in the family of the login that started it; reuse revokes the family.
      t.uuid('family_id').notNullable();
      t.uuid('user_id').notNullable().references('id').inTable('users');
      t.text('token_digest').notNullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('revoked_at', { useTz: true });
      t.index(['family_id']);
      t.index(['expires_at']);
    });
  },
};

const audit: Migration = {
  name: '0002_audit_log',
  async up(db) {
    await db.schema.createTable('audit_log', (t) => {
      t.bigIncrements('id').primary();
      t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.text('action').notNullable();
      t.uuid('user_id');
      t.uuid('merchant_id');
      t.uuid('api_key_id');
      t.text('ip');
      t.text('user_agent');
      t.text('request_id');
      t.jsonb('details').notNullable().defaultTo('{}');
      t.index(['merchant_id', 'occurred_at']);
    });
    // Append-only: the table is evidence, so rows can be added and never changed or removed.
    await db.raw(`
      create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only';
      end $$`);
    await db.raw(`
      create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`);
  },
};

const idempotency: Migration = {
  name: '0003_idempotency',
  async up(db) {
    await db.schema.createTable('idempotency_records', (t) => {
      t.uuid('id').primary();
      // HMAC over (caller, method, path, Idempotency-Key): the unique identity of the request.
      t.text('lookup_digest').notNullable().unique();
      t.text('method').notNullable();
      t.text('path').notNullable();
      t.text('request_hash').notNullable();
      t.text('state').notNullable();
      t.integer('response_status');
      t.text('response_content_type');
      // AES-256-GCM under a key derived from the Idempotency-Key: responses may carry secrets.
      t.binary('response_body');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('completed_at', { useTz: true });
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['expires_at']);
    });
  },
};

const wallets: Migration = {
  name: '0004_merchant_wallets',
  async up(db) {
    // Projection of `wallet.assigned`; the chain-watcher owns the wallets themselves.
    await db.schema.createTable('merchant_wallets', (t) => {
      t.uuid('merchant_id').primary();
      t.uuid('wallet_id').notNullable();
      t.text('address').notNullable();
      t.text('blockchain').notNullable();
      t.integer('chain_id').notNullable();
      t.timestamp('assigned_at', { useTz: true }).notNullable();
      t.uuid('event_id').notNullable();
    });
  },
};

const accountSecurity: Migration = {
  name: '0005_account_security',
  async up(db) {
    await db.schema.alterTable('users', (t) => {
      // AES-256-GCM sealed TOTP secrets: the confirmed one and one being enrolled.
      t.binary('totp_secret');
      t.binary('totp_pending_secret');
      t.timestamp('totp_enabled_at', { useTz: true });
      // The last 30-second step a code was accepted for: a code is never accepted twice.
      t.bigInteger('totp_last_step');
    });
    await db.schema.createTable('recovery_codes', (t) => {
      t.uuid('id').primary();
      t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
      t.text('code_digest').notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['user_id', 'code_digest']);
    });
    await db.schema.createTable('mfa_challenges', (t) => {
      t.uuid('id').primary();
      t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
      t.text('token_digest').notNullable().unique();
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.index(['expires_at']);
    });
  },
};

const apiKeyPepperFingerprint: Migration = {
  name: '0006_api_key_pepper_fingerprint',
  async up(db) {
    await db.schema.alterTable('api_keys', (t) => {
      // Which pepper key_digest was made with, so a rotation's progress can be counted.
      t.text('pepper_fingerprint');
    });
  },
};

/**
 * What each key may do. Keys that exist already get the default set (never withdrawals:write),
 * fixed here as it stood when scopes were introduced, so this migration means the same thing
 * whatever the default becomes later. The column has no default: every insert names its scopes.
 */
const LEGACY_KEY_SCOPES = [
  'payments:read',
  'checkout:write',
  'checkout:read',
  'refunds:write',
  'refunds:read',
  'webhooks:write',
  'webhooks:read',
  'balance:read',
  'invoices:read',
  'withdrawals:read',
  'ledger:read',
];
const apiKeyScopes: Migration = {
  name: '0007_api_key_scopes',
  async up(db) {
    await db.schema.alterTable('api_keys', (t) => {
      t.specificType('scopes', 'text[]');
    });
    await db('api_keys').update({ scopes: LEGACY_KEY_SCOPES });
    await db.raw('alter table api_keys alter column scopes set not null');
  },
};

const emailConfirmation: Migration = {
  name: '0008_email_confirmation',
  async up(db) {
    await db.schema.alterTable('users', (t) => {
      t.timestamp('email_confirmed_at', { useTz: true });
      // When a confirmation link was last sent, and how many in the hour since confirmation_window_at.
      t.timestamp('confirmation_sent_at', { useTz: true });
      t.timestamp('confirmation_window_at', { useTz: true });
      t.integer('confirmation_sends').notNullable().defaultTo(0);
      // When the owner was last told that someone tried to register with the address.
      t.timestamp('registration_notice_at', { useTz: true });
    });
    // Accounts made before confirmation existed were never asked to confirm: they count as confirmed.
    await db('users').update({ email_confirmed_at: db.ref('created_at') });
    await db.schema.createTable('email_confirmations', (t) => {
      t.uuid('id').primary();
      t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
      // SHA-256 of the link's secret; the secret itself is only in the e-mail.
      t.text('secret_digest').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['user_id']);
    });
  },
};

const sessionSignInTime: Migration = {
  name: '0009_session_sign_in_time',
  async up(db) {
    await db.schema.alterTable('refresh_tokens', (t) => {
      // When the session's user last proved who they are (password, or password and code), carried
      // from token to token, so a refreshed access token still says how recent the sign-in is.
      // Sessions started before it have none and count as not recent.
      t.timestamp('authenticated_at', { useTz: true });
    });
  },
};

/**
 * What customers see of a merchant and who bears a gasless payment's network fee. The logo is kept
 * here, beside the merchant, rather than in the invoicing service's object store: it is small
 * (at most 256 KB), one per merchant, changes with the settings in one transaction, and the gateway
 * that serves it needs no new network path or credential to reach it.
 */
const merchantSettings: Migration = {
  name: '0010_merchant_settings',
  async up(db) {
    await db.schema.alterTable('merchants', (t) => {
      t.text('accent_color');
      // null: the deployment's default (the payments service's GASLESS_FEE_BEARER)
      t.text('network_fee_bearer');
      // Grows with every change, so consumers of merchant.settings_updated keep the latest.
      t.integer('settings_version').notNullable().defaultTo(0);
      t.timestamp('settings_updated_at', { useTz: true });
    });
    await db.schema.createTable('merchant_logos', (t) => {
      t.uuid('merchant_id').primary().references('id').inTable('merchants');
      t.text('content_type').notNullable();
      t.binary('image').notNullable();
      t.text('sha256').notNullable();
      t.integer('width').notNullable();
      t.integer('height').notNullable();
      t.integer('bytes').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};

/**
 * The merchant's language: the dashboard's when they registered, then the one they choose in the
 * settings. Every e-mail to the merchant is written in it; null (English) for merchants from before.
 */
const merchantLanguage: Migration = {
  name: '0011_merchant_language',
  async up(db) {
    await db.schema.alterTable('merchants', (t) => {
      t.text('language');
    });
  },
};

export const gatewayMigrations: Migration[] = [
  outboxMigration,
  inboxMigration,
  accounts,
  audit,
  idempotency,
  wallets,
  accountSecurity,
  apiKeyPepperFingerprint,
  apiKeyScopes,
  emailConfirmation,
  sessionSignInTime,
  merchantSettings,
  merchantLanguage,
];

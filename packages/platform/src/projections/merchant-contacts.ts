import type { Knex } from 'knex';
import { EventTypes, pickLanguage, type Language, type MerchantCreatedData } from '@stablepay/contracts';
import type { Db } from '../db/database.js';
import type { EventHandlers } from '../messaging/consumer.js';
import { applyNewerSettings } from './merchant-settings.js';

/** A merchant as merchant.created announced it: whom to address, and whether that address is confirmed. */
export interface MerchantContact {
  merchantId: string;
  publicId: string;
  name: string;
  email: string;
  /** false until merchant.email_confirmed */
  emailConfirmed: boolean;
  /** The merchant's language, in a service that keeps it (option `keepLanguage`); else undefined. */
  language?: Language;
}

/**
 * The contact's columns as the services' first migrations created them (email_confirmed came later,
 * in a migration of its own): part of those migrations' history, so never to change.
 */
export const merchantContactColumns = (t: Knex.CreateTableBuilder): void => {
  t.uuid('merchant_id').primary();
  t.text('public_id').notNullable();
  t.text('name').notNullable();
  t.text('email').notNullable();
};

/**
 * The version of the merchant's settings whose name the row holds (merchant.settings_updated), in a
 * migration of its own: 0 until the merchant first changes its settings.
 */
export const merchantSettingsVersionColumn = (t: Knex.AlterTableBuilder): void => {
  t.integer('settings_version').notNullable().defaultTo(0);
};

export interface MerchantContactsOptions {
  /** The service's own table: merchant_id (primary key), public_id, name, email, email_confirmed, settings_version. */
  table: string;
  /** Further columns the service keeps from merchant.created. */
  alsoKeep?: (data: MerchantCreatedData) => Record<string, unknown>;
  /** A column set to now() whenever the row changes. */
  touchedColumn?: string;
  /**
   * The table has a nullable `language` column, kept from merchant.created (the registration's)
   * and merchant.settings_updated (the merchant's choice, which a late merchant.created never undoes).
   */
  keepLanguage?: boolean;
}

export interface MerchantContacts {
  /** merchant.created, merchant.email_confirmed and merchant.settings_updated, for the service's list of consumers. */
  handlers: EventHandlers;
  find(db: Db, merchantId: string): Promise<MerchantContact | undefined>;
  /** A row of the table read by a query of the service's own (one that reads more than the merchant). */
  contactOf(row: MerchantContactRow): MerchantContact;
}

/** The table's columns that make a contact. */
export interface MerchantContactRow {
  merchant_id: string;
  public_id: string;
  name: string;
  email: string;
  email_confirmed: boolean;
  language?: string | null;
}

/**
 * The gateway's merchants as a service keeps them in its own table. The latest name and address win
 * (a re-delivered older copy changes nothing new); a confirmation already recorded stays, and one
 * that arrives before its merchant.created is retried until that arrives (the gateway publishes it
 * first). Merchants announced before confirmation existed count as confirmed. A name changed in the
 * merchant's settings replaces the registered one: the highest settings version wins, and a
 * re-delivered merchant.created no longer puts the registered name back.
 */
export const merchantContacts = (opts: MerchantContactsOptions): MerchantContacts => {
  const { table } = opts;
  const contactOf = (row: MerchantContactRow): MerchantContact => ({
    merchantId: row.merchant_id,
    publicId: row.public_id,
    name: row.name,
    email: row.email,
    emailConfirmed: row.email_confirmed === true,
    ...(opts.keepLanguage && { language: pickLanguage(row.language ?? null, []) }),
  });
  const touched = (db: Db) => (opts.touchedColumn ? { [opts.touchedColumn]: db.fn.now() } : {});
  return {
    handlers: {
      [EventTypes.MerchantCreated]: async ({ data }, trx) => {
        const kept = {
          public_id: data.publicId,
          name: data.name,
          email: data.email,
          ...opts.alsoKeep?.(data),
          ...(opts.keepLanguage && { language: data.language ?? null }),
        };
        await trx(table)
          .insert({ merchant_id: data.merchantId, ...kept, email_confirmed: data.emailConfirmed ?? true })
          .onConflict('merchant_id')
          .merge({
            ...kept,
            name: trx.raw(
              `case when ${table}.settings_version > 0 then ${table}.name else excluded.name end`,
            ),
            email_confirmed: trx.raw(`${table}.email_confirmed or excluded.email_confirmed`),
            ...(opts.keepLanguage && {
              language: trx.raw(
                `case when ${table}.settings_version > 0 then ${table}.language else excluded.language end`,
              ),
            }),
            ...touched(trx),
          });
      },
      [EventTypes.MerchantSettingsUpdated]: async ({ data }, trx) => {
        const known = await applyNewerSettings(trx, table, data, {
          name: data.name,
          ...(opts.keepLanguage && data.language !== undefined && { language: data.language }),
          ...touched(trx),
        });
        if (!known)
          throw new Error(
            `merchant ${data.merchantId} not known yet; its settings wait for merchant.created`,
          );
      },
      [EventTypes.MerchantEmailConfirmed]: async ({ data }, trx) => {
        const marked = await trx(table)
          .where({ merchant_id: data.merchantId })
          .update({ email_confirmed: true, ...touched(trx) });
        if (marked !== 1)
          throw new Error(
            `merchant ${data.merchantId} not known yet; its confirmation waits for merchant.created`,
          );
      },
    },
    async find(db, merchantId) {
      const row = (await db(table).where({ merchant_id: merchantId }).first()) as
        MerchantContactRow | undefined;
      return row && contactOf(row);
    },
    contactOf,
  };
};

import type { Knex } from 'knex';
import type { Migration } from './database.js';

/*
 * Migrations build on these, so each must keep emitting exactly what it emits today: a database
 * migrated long ago and one migrated now have to end up the same.
 */

/** Millisecond precision, so a timestamp that went out as JSON compares equal when it comes back. */
export const timestampMs = (t: Knex.TableBuilder, name: string) =>
  t.timestamp(name, { useTz: true, precision: 3 });

/** The quoted values of a check constraint's `in (…)` list. */
export const sqlInList = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

/** A migration that alters one table and does nothing else (most often: adds a column). */
export const alterTableMigration = (
  name: string,
  table: string,
  alter: (t: Knex.AlterTableBuilder) => void,
): Migration => ({
  name,
  async up(db) {
    await db.schema.alterTable(table, alter);
  },
});

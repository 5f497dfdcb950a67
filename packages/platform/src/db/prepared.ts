import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from './database.js';

/**
 * Databases whose hot statements run prepared: node-postgres pools, unless the operator turned it
 * off (DATABASE_PREPARED_STATEMENTS=false, behind a pooler that cannot keep them per connection).
 */
const preparing = new WeakSet<object>();

/**
 * The knex client's configuration: one object for the pool and every transaction taken from it
 * (a transaction's client inherits it).
 */
const configOf = (db: Db): object => (db.client as { config: object }).config;

/** Marks a database's hot statements to run as named prepared statements (createDatabase does it). */
export const prepareStatementsOn = (db: Knex): void => {
  preparing.add(configOf(db));
};

/**
 * The name each statement text is prepared under, with a generation: when a migration changes what
 * a statement returns (a column added to a table it selects `*` from), PostgreSQL refuses the plan
 * every connection prepared, and the text is prepared again under a new name.
 */
const names = new Map<string, { name: string; generation: number }>();

const nameOf = (sql: string): string => {
  let entry = names.get(sql);
  if (!entry) {
    entry = { name: '', generation: 0 };
    entry.name = `sp_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}_0`;
    names.set(sql, entry);
  }
  return entry.name;
};

const renew = (sql: string): void => {
  const entry = names.get(sql);
  if (!entry) return;
  entry.generation++;
  entry.name = `${entry.name.slice(0, entry.name.lastIndexOf('_'))}_${entry.generation}`;
};

/** PostgreSQL's refusal of a prepared plan whose result columns a migration changed (feature_not_supported). */
const resultTypeChanged = (err: unknown): boolean =>
  (err as { code?: string }).code === '0A000' &&
  String((err as { message?: unknown }).message).includes('cached plan must not change result type');

/**
 * `db.raw(sql, bindings)` for a statement a service runs on every request or message: on
 * node-postgres it is a named prepared statement, so PostgreSQL parses and plans it once per
 * connection and then runs its cached plan (a statement whose planning outweighs its work, such as a
 * data-modifying CTE over tables with partial indexes, costs a fraction of what it did). The text
 * must be the same for every call with the same meaning; the values go in `bindings`, never in the
 * text (an array is one value: `= any(?)`). A plan refused because a migration changed the
 * statement's result columns is prepared again under a new name and, outside a transaction, the
 * call is made once more: the refusal comes before anything ran.
 */
export const preparedRaw = async <T = unknown>(
  db: Db,
  sql: string,
  bindings: readonly Knex.RawBinding[],
): Promise<T> => {
  // `??` puts an identifier into the text: such a text is not the same statement every time.
  if (!preparing.has(configOf(db)) || sql.includes('??')) return (await db.raw(sql, bindings)) as T;
  try {
    return (await db.raw(sql, bindings).options({ name: nameOf(sql) })) as T;
  } catch (err) {
    if (!resultTypeChanged(err)) throw err;
    renew(sql);
    // In a transaction the refusal ended it: the caller's retry (a redelivery) takes the new name.
    if (db.isTransaction) throw err;
    return (await db.raw(sql, bindings).options({ name: nameOf(sql) })) as T;
  }
};

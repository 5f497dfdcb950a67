import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase } from '../../src/db/database.js';
import { preparedRaw } from '../../src/db/prepared.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/backends.js';

type Rows<T> = { rows: T[] };

/** The statements the session behind a one-connection pool has prepared. */
const preparedOn = async (db: Knex): Promise<Array<{ name: string; statement: string }>> =>
  (
    (await db.raw('select name, statement from pg_prepared_statements order by name')) as Rows<{
      name: string;
      statement: string;
    }>
  ).rows;

describe('preparedRaw: hot statements planned once per connection (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;

  before(async () => {
    tdb = await createTestDatabase();
    // One connection, so that the session asked about is the one that ran the statements.
    db = await createDatabase({ url: tdb.url, schema: 'prepared', poolMax: 1 });
    await db.schema.createTable('things', (t) => {
      t.integer('id').primary();
      t.text('name').notNullable();
    });
    await db('things').insert([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  it('prepares a statement once under a name of its text and runs it with each call’s values', async () => {
    const sql = 'select * from things where id = ?';
    const first = await preparedRaw<Rows<{ id: number; name: string }>>(db, sql, [1]);
    const second = await preparedRaw<Rows<{ id: number; name: string }>>(db, sql, [2]);
    expect(first.rows).to.deep.equal([{ id: 1, name: 'one' }]);
    expect(second.rows).to.deep.equal([{ id: 2, name: 'two' }]);
    const prepared = (await preparedOn(db)).filter((p) => p.statement.includes('from things where id'));
    expect(prepared).to.have.length(1);
    expect(prepared[0]!.name).to.match(/^sp_[0-9a-f]{24}_0$/);
    expect(prepared[0]!.statement).to.equal('select * from things where id = $1');
  });

  it('prepares again, and answers, when a migration changed the columns a statement returns', async () => {
    const sql = 'select * from things where id = ? and name is not null';
    await preparedRaw(db, sql, [1]);
    await db.schema.alterTable('things', (t) => t.text('colour'));
    try {
      const after = await preparedRaw<Rows<Record<string, unknown>>>(db, sql, [1]);
      expect(after.rows).to.deep.equal([{ id: 1, name: 'one', colour: null }]);
      const names = (await preparedOn(db))
        .filter((p) => p.statement.includes('name is not null'))
        .map((p) => p.name.slice(-2));
      expect(names).to.deep.equal(['_0', '_1']);
    } finally {
      await db.schema.alterTable('things', (t) => t.dropColumn('colour'));
    }
  });

  it('in a transaction, lets the refusal end it and gives the next call the new name', async () => {
    const sql = 'select * from things where id = ? and id > 0';
    await preparedRaw(db, sql, [2]);
    await db.schema.alterTable('things', (t) => t.text('size'));
    try {
      let refused: unknown;
      await db
        .transaction(async (trx) => {
          await preparedRaw(trx, sql, [2]);
        })
        .catch((err: unknown) => (refused = err));
      expect((refused as { code?: string }).code).to.equal('0A000');
      const again = await db.transaction((trx) => preparedRaw<Rows<Record<string, unknown>>>(trx, sql, [2]));
      expect(again.rows).to.deep.equal([{ id: 2, name: 'two', size: null }]);
    } finally {
      await db.schema.alterTable('things', (t) => t.dropColumn('size'));
    }
  });

  it('takes a list as one value, so lists of any length share the statement', async () => {
    const sql = 'select id from things where id = any(?::int[]) order by id';
    const both = await preparedRaw<Rows<{ id: number }>>(db, sql, [[1, 2]]);
    const one = await preparedRaw<Rows<{ id: number }>>(db, sql, [[2]]);
    expect(both.rows.map((r) => r.id)).to.deep.equal([1, 2]);
    expect(one.rows.map((r) => r.id)).to.deep.equal([2]);
    expect((await preparedOn(db)).filter((p) => p.statement.includes('any('))).to.have.length(1);
  });

  it('runs a text that names an identifier through `??` unprepared, as it changes with its values', async () => {
    const found = await preparedRaw<Rows<{ v: string }>>(db, 'select ?? as v from things where id = ?', [
      'name',
      2,
    ]);
    expect(found.rows).to.deep.equal([{ v: 'two' }]);
    expect((await preparedOn(db)).some((p) => p.statement.includes('as v'))).to.equal(false);
  });

  it('prepares nothing when the operator turned prepared statements off', async () => {
    const plain = await createDatabase({
      url: tdb.url,
      schema: 'prepared',
      poolMax: 1,
      preparedStatements: false,
    });
    try {
      const found = await preparedRaw<Rows<{ name: string }>>(
        plain,
        'select name from things where id = ?',
        [1],
      );
      expect(found.rows).to.deep.equal([{ name: 'one' }]);
      expect(await preparedOn(plain)).to.deep.equal([]);
    } finally {
      await plain.destroy();
    }
  });
});

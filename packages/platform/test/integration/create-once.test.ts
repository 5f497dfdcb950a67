import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDatabase } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import {
  REQUEST_KEY_REUSED,
  createOnce,
  madeByKey,
  requestFingerprint,
  type MadeByKey,
  type RequestKey,
} from '../../src/http/request-key.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/backends.js';

interface Thing {
  id: number;
  name: string;
}

describe('createOnce: one resource per Idempotency-Key (PostgreSQL)', function () {
  this.timeout(30_000);
  let tdb: TestDatabase;
  let db: Knex;
  const merchant = 'm1';

  before(async () => {
    tdb = await createTestDatabase();
    db = await createDatabase({ url: tdb.url, schema: 'create_once' });
    await db.schema.createTable('things', (t) => {
      t.increments('id');
      t.text('merchant_id').notNullable();
      t.text('name').notNullable();
      t.text('request_key');
      t.text('request_fingerprint');
    });
    await db.raw(
      'create unique index things_request_key_idx on things (merchant_id, request_key) where request_key is not null',
    );
  });
  after(async () => {
    await db.destroy();
    await tdb.drop();
  });

  const keyFor = (key: string, body: unknown): RequestKey => ({ key, fingerprint: requestFingerprint(body) });

  const find =
    (conn: Knex | Knex.Transaction = db) =>
    async (key: string): Promise<MadeByKey<Thing> | undefined> => {
      const row = await conn('things').where({ merchant_id: merchant, request_key: key }).first();
      return row ? { made: { id: row.id, name: row.name }, fingerprint: row.request_fingerprint } : undefined;
    };

  const insert = async (
    name: string,
    requestKey: RequestKey | undefined,
    conn: Knex = db,
  ): Promise<Thing> => {
    const [row] = await conn('things')
      .insert({
        merchant_id: merchant,
        name,
        request_key: requestKey?.key ?? null,
        request_fingerprint: requestKey?.fingerprint ?? null,
      })
      .returning(['id', 'name']);
    return row as Thing;
  };

  const make = (name: string, requestKey: RequestKey | undefined, create = () => insert(name, requestKey)) =>
    createOnce({ requestKey, uniqueIndex: 'things_request_key_idx', find: find(), create });

  const count = async (): Promise<number> => {
    const [{ n }] = (await db('things').count('* as n')) as Array<{ n: string }>;
    return Number(n);
  };

  it('answers a repeat of the same request with what the key made, and makes nothing more', async () => {
    const key = keyFor('k-same', { name: 'a' });
    const first = await make('a', key);
    const before = await count();
    const again = await make('a', keyFor('k-same', { name: 'a' }));
    expect(again).to.deep.equal(first);
    expect(await count()).to.equal(before);
  });

  it('refuses the key with another body with the 422 and makes nothing', async () => {
    await make('b', keyFor('k-diff', { name: 'b' }));
    const before = await count();
    const err = await make('c', keyFor('k-diff', { name: 'c' })).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AppError);
    expect((err as AppError).kind).to.equal('unprocessable');
    expect((err as AppError).message).to.equal(REQUEST_KEY_REUSED);
    expect(await count()).to.equal(before);
  });

  it('takes a row stored without a fingerprint as the same request', async () => {
    const old = await insert('old', { key: 'k-old', fingerprint: '' });
    await db('things').where({ id: old.id }).update({ request_fingerprint: null });
    expect(await make('other', keyFor('k-old', { name: 'other' }))).to.deep.equal(old);
  });

  it('creates every time without a key', async () => {
    const before = await count();
    const a = await make('nokey', undefined);
    const b = await make('nokey', undefined);
    expect(a.id).to.not.equal(b.id);
    expect(await count()).to.equal(before + 2);
  });

  it('answers what a concurrent twin committed when the unique index refuses the insert', async () => {
    const key = keyFor('k-race', { name: 'r' });
    let twin: Thing | undefined;
    // The twin commits between this request's look-up and its insert.
    const result = await make('r', key, async () => {
      twin = await insert('r', key);
      return insert('r', key);
    });
    expect(result).to.deep.equal(twin);
    expect(await db('things').where({ request_key: 'k-race' }).count('* as n')).to.deep.equal([{ n: '1' }]);
  });

  it('refuses a concurrent twin with another body with the 422', async () => {
    const key = keyFor('k-race-diff', { name: 'x' });
    const err = await make('x', key, async () => {
      await insert('y', keyFor('k-race-diff', { name: 'y' }));
      return insert('x', key);
    }).catch((e: unknown) => e);
    expect((err as AppError).message).to.equal(REQUEST_KEY_REUSED);
  });

  it('lets other errors through, and the violation of another index too', async () => {
    const boom = new Error('boom');
    expect(
      await make('e', keyFor('k-err', {}), () => Promise.reject(boom)).catch((e: unknown) => e),
    ).to.equal(boom);
    const other = Object.assign(new Error('dup'), { code: '23505', constraint: 'another_idx' });
    expect(
      await make('e', keyFor('k-err', {}), () => Promise.reject(other)).catch((e: unknown) => e),
    ).to.equal(other);
  });

  it('madeByKey checks the fingerprint inside a transaction too', async () => {
    const key = keyFor('k-trx', { name: 't' });
    const made = await make('t', key);
    await db.transaction(async (trx) => {
      expect(await madeByKey(key, find(trx))).to.deep.equal(made);
      expect(await madeByKey(undefined, find(trx))).to.equal(undefined);
      expect(await madeByKey(keyFor('k-none', {}), find(trx))).to.equal(undefined);
      const err = await madeByKey(keyFor('k-trx', { name: 'u' }), find(trx)).catch((e: unknown) => e);
      expect((err as AppError).message).to.equal(REQUEST_KEY_REUSED);
    });
  });
});

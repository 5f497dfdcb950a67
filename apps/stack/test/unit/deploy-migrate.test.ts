import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import pg from 'pg';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const run = promisify(execFile);

describe('deploy/migrate.mjs', function () {
  this.timeout(60_000);
  const dbName = `deploy_migrate_${randomBytes(4).toString('hex')}`;
  const dbUrl = () => {
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    return url.toString();
  };
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };

  before(() => admin((c) => c.query(`create database ${dbName}`)));
  after(() => admin((c) => c.query(`drop database if exists ${dbName} with (force)`)));

  it('four replicas starting together on an empty database migrate it once, all exiting 0', async () => {
    const replicas = Array.from({ length: 4 }, () =>
      run(process.execPath, [join(root, 'deploy/migrate.mjs'), 'payments'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: dbUrl() },
      }),
    );
    const results = await Promise.all(replicas);
    for (const r of results) expect(JSON.parse(r.stdout.trim()).message).to.equal('migrations applied');
    const client = new pg.Client({ connectionString: dbUrl() });
    await client.connect();
    try {
      const { rows } = await client.query(
        'select name, count(*)::int as n from payments.knex_migrations group by name',
      );
      expect(rows.length).to.be.greaterThan(0);
      for (const row of rows) expect(row.n, row.name).to.equal(1);
      const lock = await client.query('select is_locked from payments.knex_migrations_lock');
      expect(lock.rows).to.deep.equal([{ is_locked: 0 }]);
      expect((await client.query("select to_regclass('payments.payments') as t")).rows[0].t).to.not.equal(
        null,
      );
    } finally {
      await client.end();
    }
  });

  it('refuses an unknown service and a missing DATABASE_URL', async () => {
    const unknown = await run(process.execPath, [join(root, 'deploy/migrate.mjs'), 'nope'], {
      cwd: root,
    }).catch((e) => e);
    expect(unknown.code).to.equal(2);
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const noUrl = await run(process.execPath, [join(root, 'deploy/migrate.mjs'), 'refunds'], {
      cwd: root,
      env,
    }).catch((e) => e);
    expect(noUrl.code).to.equal(1);
    expect(noUrl.stderr).to.contain('DATABASE_URL');
  });
});

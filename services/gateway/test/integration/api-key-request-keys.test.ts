import { expect } from 'chai';
import type { Knex } from 'knex';
import { waitFor } from '@stablepay/platform/testing';
import {
  bearer,
  call,
  signUp,
  startEchoUpstream,
  startTestGateway,
  type Account,
  type EchoUpstream,
  type TestGateway,
} from './harness.js';

/**
 * POST /api-keys is served by the gateway itself, so its Idempotency-Key record is the only thing
 * that can answer a retry: the record is completed in the transaction that makes the key.
 */
describe('gateway: creating an API key with an Idempotency-Key (PostgreSQL)', () => {
  let upstream: EchoUpstream;
  let gw: TestGateway;
  let account: Account;

  before(async () => {
    upstream = await startEchoUpstream();
    gw = await startTestGateway(upstream.url);
    account = await signUp(gw.url);
  });
  after(async () => {
    await gw?.close();
    await upstream?.close();
  });

  /** The created key, as the answer of POST /api-keys carries it. */
  const createdKey = async (answer: Response) =>
    ((await answer.json()) as { data: { id: string; key: string } }).data;

  const create = (who: Account, name: string, key: string, signal?: AbortSignal) =>
    fetch(`${gw.url}/api-keys`, {
      method: 'POST',
      headers: { ...bearer(who.accessToken), 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ name }),
      signal,
    });
  const keysNamed = async (who: Account, name: string): Promise<number> => {
    const list = await call(gw.url, 'GET', '/api-keys', { headers: bearer(who.accessToken) });
    return list.body.data.filter((k: { name: string }) => k.name === name).length;
  };

  it('makes one key per Idempotency-Key under concurrent repeats, each answer the same key', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(account, 'burst', 'key-burst')));
    const bodies = await Promise.all(
      answers.map(async (r) => ({ status: r.status, body: { data: await createdKey(r) } })),
    );
    const made = bodies.filter((b) => b.status === 201);
    expect(made.length).to.be.greaterThan(0);
    // The others were told the first is still running (409), never given a second key.
    for (const b of bodies.filter((x) => x.status !== 201)) expect(b.status).to.equal(409);
    expect(new Set(made.map((b) => b.body.data.key)).size).to.equal(1);
    const replay = await create(account, 'burst', 'key-burst');
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(await createdKey(replay)).to.deep.equal(made[0]!.body.data);
    expect(await keysNamed(account, 'burst')).to.equal(1);
  });

  it('refuses the key with another body (422) and makes no key', async () => {
    expect((await create(account, 'first-name', 'key-body')).status).to.equal(201);
    const other = await create(account, 'second-name', 'key-body');
    expect(other.status).to.equal(422);
    expect(await other.json()).to.deep.equal({
      success: false,
      error: 'Idempotency-Key was already used with a different request body',
      details: [],
    });
    expect(await keysNamed(account, 'second-name')).to.equal(0);
  });

  it("keeps each merchant's keys apart: the same Idempotency-Key makes one API key for each", async () => {
    const other = await signUp(gw.url, 'Other Shop');
    const mine = await create(account, 'shared', 'key-shared');
    const theirs = await create(other, 'shared', 'key-shared');
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).to.equal(null);
    expect((await createdKey(mine)).id).not.to.equal((await createdKey(theirs)).id);
    expect([await keysNamed(account, 'shared'), await keysNamed(other, 'shared')]).to.deep.equal([1, 1]);
  });

  it('makes exactly one key when the client goes away while the key is being made, then retries', async () => {
    // Hold the creating transaction between its insert and its commit, with the client gone.
    const blocker: Knex.Transaction = await gw.db.transaction();
    await blocker.raw('lock table audit_log in share mode');
    const aborted = new AbortController();
    const first = create(account, 'interrupted', 'key-interrupted', aborted.signal).catch(() => undefined);
    await waitFor(
      async () => {
        const { rows } = await gw.db.raw(
          `select 1 from pg_locks l join pg_database d on d.oid = l.database
           where not l.granted and d.datname = current_database()`,
        );
        return rows.length > 0 ? true : undefined;
      },
      10_000,
      'the creation waiting for the audit log',
    );
    aborted.abort();
    await first;
    // The gateway sees the client gone and frees the key for a retry before the key is committed.
    await waitFor(
      async () => {
        const row = await gw
          .db('idempotency_records')
          .where({ state: 'in_progress' })
          .count('* as n')
          .first();
        return Number(row?.n) === 0 ? true : undefined;
      },
      10_000,
      'the idempotency record released',
    );
    await blocker.commit();
    const retry = await create(account, 'interrupted', 'key-interrupted');
    expect(retry.status).to.equal(201);
    await waitFor(
      async () => ((await keysNamed(account, 'interrupted')) >= 1 ? true : undefined),
      10_000,
      'the retry key',
    );
    // Whatever the first attempt did, one request made one key, and its retry was told that key.
    expect(await keysNamed(account, 'interrupted')).to.equal(1);
    const listed = await call(gw.url, 'GET', '/api-keys', { headers: bearer(account.accessToken) });
    const key = listed.body.data.find((k: { name: string }) => k.name === 'interrupted');
    expect((await createdKey(retry)).id).to.equal(key.id);
  });
});

import { expect } from 'chai';
import pg from 'pg';
import { waitFor, type EventObserver } from '@stablepay/platform/testing';
import { startHarness, TREASURY, type Harness } from '../support/harness.js';
import { startInvoicingProcess, type InvoicingProcess } from '../support/invoicing-process.js';

const YEAR = new Date().getUTCFullYear();

/**
 * The process that completes a withdrawal is killed after the completion was applied in its
 * transaction and before that transaction (with the invoice) committed. The test holds the
 * invoice-number counter locked, so the victim waits right there; it is killed while waiting.
 */
describe('invoicing killed between the completion and the invoice commit', function () {
  this.timeout(60_000);
  /** API role only (the test's way in, on the database and queues the processes share): it consumes nothing. */
  let h: Harness;
  let victim: InvoicingProcess | undefined;
  let successor: InvoicingProcess | undefined;
  let locker: pg.Client | undefined;
  let observer: EventObserver;

  before(async () => {
    h = await startHarness({}, {}, 'api');
    observer = await h.observe(['withdrawal.completed', 'invoice.issued']);
  });
  after(async () => {
    await victim?.kill();
    await successor?.stop();
    await locker?.end().catch(() => undefined);
    await observer?.close();
    await h?.close();
  });

  it('issues exactly one invoice, numbered without a gap, once a new process takes the message over', async () => {
    const env = {
      DATABASE_URL: h.databaseUrl,
      AMQP_URL: h.amqpUrl,
      AMQP_PREFIX: h.prefix,
      CHAIN_WATCHER_URL: h.balances.url,
      TREASURY_ADDRESS: TREASURY,
      INVOICE_STORAGE_DIR: h.storageDir,
      PDF_POLL_MS: '50',
    };
    victim = await startInvoicingProcess(env);
    const m = h.merchant();
    const w = await h.withdraw(m, { amount: '100' });
    await h.report(m, w.id, 'net', 'confirmed');
    await waitFor(
      async () => (await h.db('withdrawals').where({ id: w.id }).first()).net_state === 'confirmed',
    );

    locker = new pg.Client({ connectionString: h.databaseUrl });
    await locker.connect();
    await locker.query(`set search_path to ${h.config.DATABASE_SCHEMA}`);
    await locker.query('insert into invoice_sequences (prefix, year, last_value) values ($1, $2, 0)', [
      'INV',
      YEAR,
    ]);
    await locker.query('begin');
    await locker.query('select * from invoice_sequences where prefix = $1 and year = $2 for update', [
      'INV',
      YEAR,
    ]);

    await h.report(m, w.id, 'fee', 'confirmed');
    // The victim has completed the withdrawal in its transaction and now waits for the number.
    // Read outside the locker's transaction, whose view of pg_stat_activity is a snapshot.
    await waitFor(async () => {
      const r = (await h.db.raw(
        `select count(*)::int as n from pg_stat_activity
          where application_name = 'invoicing' and wait_event_type = 'Lock' and query ilike '%invoice_sequences%'`,
      )) as { rows: Array<{ n: number }> };
      return r.rows[0]!.n === 1;
    }, 'the victim waiting on the invoice counter');
    await victim.kill();
    victim = undefined;
    await locker.query('rollback');

    successor = await startInvoicingProcess(env);
    const done = await waitFor(async () => {
      const row = await h.db('withdrawals').where({ id: w.id }).first();
      return row.status === 'completed' ? row : undefined;
    }, 'completion by the successor');
    expect(done.fee_state).to.equal('confirmed');
    const invoices = await waitFor(async () => {
      const rows = await h.db('invoices').where({ withdrawal_id: w.id }).whereNotNull('pdf_stored_at');
      return rows.length > 0 ? rows : undefined;
    });
    expect(invoices).to.have.length(1);
    expect(invoices[0].invoice_number).to.equal(`INV-${YEAR}-0001`);
    expect(await h.db('invoices')).to.have.length(1);
    await waitFor(async () => observer.messages.some((e) => e.type === 'invoice.issued'));
    expect(observer.messages.filter((e) => e.type === 'withdrawal.completed')).to.have.length(1);
  });
});

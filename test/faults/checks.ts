import { Contract, JsonRpcProvider, formatUnits, parseUnits } from 'ethers';
import pg from 'pg';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import { DEVNET_TREASURY } from '@stablepay/stack';
import { countGaslessBrokenPromises } from './gasless-checks.js';
import type { LoadGenerator, Merchant } from './load.js';
import type { startFlakyReceiver } from './receiver.js';

export type Counts = Record<string, number>;
export interface Findings {
  counts: Counts;
  /** What each non-zero count is made of, for the report. */
  details: string[];
  /** Figures for the report that are not broken promises. */
  notes: string[];
}

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();

/**
 * What the run must end with, counted from the services' databases, the chain and the receiver, not
 * from what the services say about themselves. Every count is a broken promise; all must be zero.
 */
export const countBrokenPromises = async (opts: {
  databaseUrl: string;
  load: LoadGenerator;
  receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  base: DevnetChain;
  deadLetters: Array<{ name: string; messages: number }>;
}): Promise<Findings> => {
  const { load, receiver } = opts;
  const details: string[] = [];
  const counts: Counts = {};
  let notes: string[] = [];
  const add = (name: string, detail?: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
    if (detail && details.length < 60) details.push(`${name}: ${detail}`);
  };
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  try {
    // Payments: every reported transaction is exactly one payment, completed; nothing else exists.
    const rows = (await db.query('select id, tx_hash, status, merchant_id, funding from payments.payments'))
      .rows;
    const byTx = new Map<string, Array<{ id: string; status: string }>>();
    for (const r of rows) byTx.set(r.tx_hash, [...(byTx.get(r.tx_hash) ?? []), r]);
    const intended = new Set(load.payments.map((p) => lower(p.txHash)));
    // Gasless payments have no transaction of the customer's: counted by authorization, below.
    for (const p of load.payments.filter((i) => i.kind !== 'gasless')) {
      const found = byTx.get(lower(p.txHash)) ?? [];
      if (found.length === 0) add('payments lost', `${p.kind} ${p.txHash} (${p.status ?? 'no answer'})`);
      else if (found.length > 1) add('payments duplicated', p.txHash);
      else if (found[0]!.status !== 'completed')
        add('payments not completed', `${p.kind} ${found[0]!.id} is ${found[0]!.status}`);
      if (p.paymentId && found[0] && found[0].id !== p.paymentId)
        add('payments answered with another id', `${p.paymentId} vs ${found[0].id}`);
    }
    for (const r of rows)
      if (r.funding !== 'authorization' && !intended.has(r.tx_hash))
        add('payments nobody made', `${r.id} ${r.tx_hash}`);

    // The refunds service must learn of every completed payment (payment.completed, projected).
    const projected = new Set(
      (await db.query('select payment_id from refunds.refundable_payments')).rows.map((r) => r.payment_id),
    );
    for (const r of rows)
      if (r.status === 'completed' && !projected.has(r.id))
        add('completed payments the refunds service never learned of', r.id);

    // No endpoint may be switched off by the receiver's random 500s alone (ten in a row at 20 %
    // is about one in ten million): a disabled one is a broken promise, told with the failed
    // attempts that led to it (when each was scheduled and ended, its status and its error).
    const disabled = (
      await db.query(
        `select e.url, e.disabled_at,
                (select string_agg(to_char(a.scheduled_at, 'HH24:MI:SS.MS') || '→' ||
                                   coalesce(to_char(a.finished_at, 'HH24:MI:SS.MS'), '?') || ' ' ||
                                   coalesce(a.response_status::text, '-') || ' ' || coalesce(a.error, ''),
                                   ' | ' order by a.finished_at)
                   from (select * from notifier.webhook_attempts a
                          where a.endpoint_id = e.id and a.status = 'failed' and a.finished_at <= e.disabled_at
                          order by a.finished_at desc limit 12) a) as failures
           from notifier.webhook_endpoints e
          where not e.is_active and e.disabled_reason like '%consecutive%'`,
      )
    ).rows;
    for (const r of disabled)
      add(
        'endpoints disabled by failed deliveries',
        `${r.url} at ${new Date(r.disabled_at).toISOString()}: ${r.failures ?? '-'}`,
      );

    // payment.completed: per completed payment and subscribed endpoint, exactly one event id acknowledged.
    const completed = rows.filter((r) => r.status === 'completed');
    const eventsOf = new Map<string, Map<string, number>>();
    for (const [path, seen] of (await receiver.snapshot()).acknowledged) {
      const perPayment = new Map<string, number>();
      for (const a of seen.values())
        if (a.event === 'payment.completed' && a.paymentId)
          perPayment.set(a.paymentId, (perPayment.get(a.paymentId) ?? 0) + 1);
      eventsOf.set(path, perPayment);
    }
    // By the customer's transaction, or by payment id for a gasless payment (its row holds the relay's).
    const merchantOf = new Map<string, Merchant>();
    for (const p of load.payments) {
      if (p.txHash) merchantOf.set(lower(p.txHash), p.merchant);
      if (p.paymentId) merchantOf.set(p.paymentId, p.merchant);
    }
    // What the notifier recorded for a delivery the receiver never acknowledged: the explanation.
    const notifierSide = async (paymentId: string, path: string) => {
      const rows = (
        await db.query(
          `select e.is_active, e.disabled_reason, d.status, d.attempts,
                  (select a.error || ' ' || coalesce(a.response_status::text, '') from notifier.webhook_attempts a
                    where a.delivery_id = d.id order by a.attempt desc limit 1) as last_error
             from notifier.webhook_endpoints e
             left join notifier.webhook_events ev on ev.merchant_id = e.merchant_id and ev.type = 'payment.completed'
                  and ev.body like '%' || $1 || '%'
             left join notifier.webhook_deliveries d on d.endpoint_id = e.id and d.event_id = ev.id
            where e.url like '%' || $2`,
          [paymentId, path],
        )
      ).rows;
      return rows
        .map(
          (r) =>
            `endpoint ${r.is_active ? 'active' : `disabled (${r.disabled_reason})`}, delivery ${r.status ?? 'none'} after ${r.attempts ?? 0} attempts, last: ${r.last_error ?? '-'}`,
        )
        .join('; ');
    };
    for (const r of completed) {
      for (const path of (merchantOf.get(r.tx_hash) ?? merchantOf.get(r.id))?.endpoints ?? []) {
        const n = eventsOf.get(path)?.get(r.id) ?? 0;
        if (n === 0)
          add(
            'payment.completed not delivered',
            details.length < 60 ? `${r.id} to ${path}: ${await notifierSide(r.id, path)}` : undefined,
          );
        if (n > 1) add('payment.completed delivered as several events', `${r.id} to ${path}: ${n} event ids`);
      }
    }

    notes = await countGaslessBrokenPromises({ db, load, base: opts.base, add });

    // Transfers out of each merchant wallet, read from the chain: each must be one refund or one leg of a withdrawal.
    const provider = new JsonRpcProvider(opts.base.rpcUrl, opts.base.chainId, { staticNetwork: true });
    const usdc = new Contract(opts.base.tokens.USDC, fiatTokenAbi(), provider);
    const transfers = new Map<string, { to: string; value: bigint; used: boolean }>();
    try {
      for (const m of new Set(load.payments.map((p) => p.merchant))) {
        const logs = await usdc.queryFilter(usdc.filters.Transfer!(m.wallet), 0, 'latest');
        for (const log of logs) {
          const l = log as unknown as {
            transactionHash: string;
            index: number;
            args: [string, string, bigint];
          };
          transfers.set(`${lower(l.transactionHash)}:${l.index}`, {
            to: lower(l.args[1]),
            value: l.args[2],
            used: false,
          });
        }
      }
    } finally {
      provider.destroy();
    }
    const claim = (txHash: string | null, to: string, amount: string) => {
      const hits = [...transfers.entries()].filter(
        ([k, t]) =>
          k.startsWith(`${lower(txHash)}:`) &&
          t.to === lower(to) &&
          t.value === parseUnits(String(amount), 6),
      );
      for (const [, t] of hits) t.used = true;
      return hits.length;
    };

    const refundRows = (
      await db.query(
        'select id, payment_id, status, destination_address, amount, tx_hash from refunds.refunds',
      )
    ).rows;
    const refundsOf = new Map<string, typeof refundRows>();
    for (const r of refundRows) refundsOf.set(r.payment_id, [...(refundsOf.get(r.payment_id) ?? []), r]);
    for (const intent of load.refunds) {
      const found = refundsOf.get(intent.paymentId) ?? [];
      if (intent.refundId === undefined) {
        if (found.length > 0) add('refunds made though refused', `${intent.paymentId}: ${intent.status}`);
        else add('refunds refused', `${intent.paymentId}: ${intent.status}`);
        continue;
      }
      if (found.length === 0) add('refunds lost', intent.refundId);
      if (found.length > 1) add('refunds duplicated', `${intent.paymentId}: ${found.length} refunds`);
    }
    for (const r of refundRows) {
      if (r.status !== 'completed') add('refunds not completed', `${r.id} is ${r.status}`);
      const n = r.tx_hash ? claim(r.tx_hash, r.destination_address, r.amount) : 0;
      if (n !== 1) add('refunds without exactly one transfer', `${r.id}: ${n}`);
    }

    const withdrawalRows = (
      await db.query(
        'select id, status, destination_address, treasury_address, net_amount, fee_amount, net_tx_hash, fee_tx_hash from invoicing.withdrawals',
      )
    ).rows;
    const byDestination = new Map<string, typeof withdrawalRows>();
    for (const w of withdrawalRows)
      byDestination.set(lower(w.destination_address), [
        ...(byDestination.get(lower(w.destination_address)) ?? []),
        w,
      ]);
    for (const intent of load.withdrawals) {
      const found = byDestination.get(lower(intent.destination)) ?? [];
      if (intent.withdrawalId === undefined) {
        if (found.length > 0)
          add('withdrawals made though refused', `${intent.destination}: ${intent.status}`);
        // Refused for want of funds is an answer, not a broken promise; anything else is.
        else if (intent.status !== 'refused: 422')
          add('withdrawals refused', `${intent.destination}: ${intent.status}`);
        continue;
      }
      if (found.length === 0) add('withdrawals lost', intent.withdrawalId);
      if (found.length > 1) add('withdrawals duplicated', `${intent.destination}: ${found.length}`);
    }
    const intendedDestinations = new Set(load.withdrawals.map((w) => lower(w.destination)));
    for (const w of withdrawalRows) {
      if (!intendedDestinations.has(lower(w.destination_address))) add('withdrawals nobody asked for', w.id);
      if (w.status !== 'completed') add('withdrawals not completed', `${w.id} is ${w.status}`);
      const net = w.net_tx_hash ? claim(w.net_tx_hash, w.destination_address, w.net_amount) : 0;
      const fee = w.fee_tx_hash
        ? claim(w.fee_tx_hash, w.treasury_address ?? DEVNET_TREASURY.address, w.fee_amount)
        : 0;
      if (net !== 1 || fee !== 1)
        add('withdrawals without exactly one transfer per leg', `${w.id}: net ${net}, fee ${fee}`);
    }
    // The ledger of every merchant wallet equals the chain: the wallet account's entries add up to
    // balanceOf for each token, and every journal balances.
    const ledgerProvider = new JsonRpcProvider(opts.base.rpcUrl, opts.base.chainId, { staticNetwork: true });
    try {
      const ledger = new Map(
        (
          await db.query(
            `select wallet_address, token, sum(amount)::text as total from chain_watcher.ledger_entries
              where account = 'wallet' and chain_id = $1 group by wallet_address, token`,
            [opts.base.chainId],
          )
        ).rows.map((r) => [`${r.wallet_address}:${r.token}`, BigInt(r.total)]),
      );
      for (const m of new Set(load.payments.map((p) => p.merchant))) {
        for (const [token, address] of Object.entries(opts.base.tokens)) {
          if (!address) continue;
          const contract = new Contract(address, fiatTokenAbi(), ledgerProvider);
          const onchain = (await contract.getFunction('balanceOf')(m.wallet)) as bigint;
          const recorded = ledger.get(`${lower(m.wallet)}:${token}`) ?? 0n;
          if (onchain !== recorded)
            add(
              'ledger balances that differ from the chain',
              `${m.wallet} ${token}: ledger ${formatUnits(recorded, 6)}, chain ${formatUnits(onchain, 6)}`,
            );
        }
      }
    } finally {
      ledgerProvider.destroy();
    }
    const unbalanced = (
      await db.query(
        `select journal_id, sum(amount)::text as total from chain_watcher.ledger_entries
          group by journal_id having sum(amount) <> 0`,
      )
    ).rows;
    for (const j of unbalanced) add('ledger journals that do not balance', `${j.journal_id}: ${j.total}`);

    for (const [key, t] of transfers)
      if (!t.used)
        add(
          'transfers out of a merchant wallet that nothing asked for',
          `${key} ${formatUnits(t.value, 6)} to ${t.to}`,
        );

    // Invoice numbers: one per completed withdrawal, 1..n in each year's sequence, none twice.
    const invoices = (
      await db.query(
        'select prefix, year, sequence, withdrawal_id from invoicing.invoices order by prefix, year, sequence',
      )
    ).rows;
    const seqs = new Map<string, number[]>();
    for (const i of invoices)
      seqs.set(`${i.prefix}-${i.year}`, [...(seqs.get(`${i.prefix}-${i.year}`) ?? []), Number(i.sequence)]);
    for (const [series, list] of seqs) {
      list.forEach((s, n) => {
        if (s !== n + 1) add('invoice-number gaps or repeats', `${series}: position ${n + 1} holds ${s}`);
      });
    }
    const invoiced = new Set(invoices.map((i) => i.withdrawal_id));
    for (const w of withdrawalRows)
      if (w.status === 'completed' && !invoiced.has(w.id))
        add('completed withdrawals without an invoice', w.id);

    for (const q of opts.deadLetters)
      if (q.messages > 0) add('dead-lettered messages', `${q.name}: ${q.messages}`);
  } finally {
    await db.end();
  }
  return { counts, details, notes };
};

/**
 * Seconds from `since` until the first reconciliation run that started after it found every wallet
 * agreeing with the chain (none in flight, none in discrepancy); undefined if none did within `withinMs`.
 */
export const reconciledAfter = async (
  databaseUrl: string,
  since: Date,
  withinMs: number,
): Promise<number | undefined> => {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    while (Date.now() - since.getTime() < withinMs) {
      const run = (
        await db.query(
          `select r.id, r.finished_at,
                  (select count(*)::int from chain_watcher.reconciliation_wallets w
                    where w.run_id = r.id and w.status <> 'agrees') as off
             from chain_watcher.reconciliation_runs r
            where r.status = 'complete' and r.checked_at > $1
            order by r.checked_at desc limit 1`,
          [since],
        )
      ).rows[0] as { finished_at: Date; off: number } | undefined;
      if (run && run.off === 0) return (run.finished_at.getTime() - since.getTime()) / 1000;
      await new Promise((r) => setTimeout(r, 500));
    }
    return undefined;
  } finally {
    await db.end();
  }
};

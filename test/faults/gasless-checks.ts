import { Contract, Interface, JsonRpcProvider, formatUnits } from 'ethers';
import type pg from 'pg';
import { fiatTokenAbi, type DevnetChain } from '@stablepay/devnet';
import type { LoadGenerator, PaymentIntent } from './load.js';

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();
const keyOf = (from: string, nonce: string) => `${lower(from)}:${lower(nonce)}`;

interface RelayRow {
  payment_id: string;
  tx_hash: string;
  kind: string;
  relayer_nonce: string;
}

/** What the chain holds for the gasless payers: their authorizations used, and every call that tried one. */
interface ChainView {
  /** AuthorizationUsed logs by authorization: the transactions that used it. */
  used: Map<string, string[]>;
  /** Transfer logs out of each payer, by transaction. */
  transfersOut: Map<string, Array<{ to: string; value: bigint }>>;
  /** Mined calls of transfer/receiveWithAuthorization for a payer's authorization, reverted ones included. */
  calls: Map<string, Array<{ hash: string; ok: boolean }>>;
}

const AUTHORIZATION_CALLS = new Set(
  new Interface(fiatTokenAbi()).fragments
    .filter(
      (f) =>
        f.type === 'function' &&
        'name' in f &&
        (f.name === 'transferWithAuthorization' || f.name === 'receiveWithAuthorization'),
    )
    .map((f) => (f as unknown as { selector: string }).selector),
);

/**
 * Every mined transaction to the token that calls an authorization of one of `payers`, read block by
 * block: a second relay transaction for one authorization reverts and leaves no log, so only the
 * blocks themselves show it. (from, nonce) are the call's first and sixth words in either overload.
 */
/** Blocks already read, per chain: anvil's blocks never change, and the drain asks again every few seconds. */
const scanned = new Map<string, { next: number; found: Array<{ key: string; hash: string; ok: boolean }> }>();

const authorizationCalls = async (
  provider: JsonRpcProvider,
  base: DevnetChain,
  payers: Set<string>,
): Promise<ChainView['calls']> => {
  const token = base.tokens.USDC;
  const seen = scanned.get(base.rpcUrl) ?? { next: 0, found: [] };
  scanned.set(base.rpcUrl, seen);
  const latest = await provider.getBlockNumber();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (seen.next <= latest) {
        const n = seen.next++;
        const block = (await provider.send('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as {
          transactions: Array<{ hash: string; to: string | null; input: string }>;
        };
        for (const tx of block.transactions) {
          if (lower(tx.to) !== lower(token) || !AUTHORIZATION_CALLS.has(tx.input.slice(0, 10))) continue;
          const word = (i: number) => tx.input.slice(10 + 64 * i, 10 + 64 * (i + 1));
          const from = `0x${word(0).slice(24)}`;
          if (!payers.has(from)) continue;
          const receipt = await provider.getTransactionReceipt(tx.hash);
          seen.found.push({
            key: keyOf(from, `0x${word(5)}`),
            hash: lower(tx.hash),
            ok: receipt?.status === 1,
          });
        }
      }
    }),
  );
  const calls: ChainView['calls'] = new Map();
  for (const c of seen.found) calls.set(c.key, [...(calls.get(c.key) ?? []), { hash: c.hash, ok: c.ok }]);
  return calls;
};

const readChain = async (base: DevnetChain, payers: string[]): Promise<ChainView> => {
  const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, { staticNetwork: true });
  try {
    const usdc = new Contract(base.tokens.USDC, fiatTokenAbi(), provider);
    const used: ChainView['used'] = new Map();
    const transfersOut: ChainView['transfersOut'] = new Map();
    for (const payer of payers) {
      for (const log of await usdc.queryFilter(usdc.filters.AuthorizationUsed!(payer), 0, 'latest')) {
        const l = log as unknown as { transactionHash: string; args: [string, string] };
        const key = keyOf(l.args[0], l.args[1]);
        used.set(key, [...(used.get(key) ?? []), lower(l.transactionHash)]);
      }
      for (const log of await usdc.queryFilter(usdc.filters.Transfer!(payer), 0, 'latest')) {
        const l = log as unknown as { transactionHash: string; args: [string, string, bigint] };
        const tx = lower(l.transactionHash);
        transfersOut.set(tx, [...(transfersOut.get(tx) ?? []), { to: lower(l.args[1]), value: l.args[2] }]);
      }
    }
    const calls = await authorizationCalls(provider, base, new Set(payers.map(lower)));
    return { used, transfersOut, calls };
  } finally {
    provider.destroy();
  }
};

type Add = (name: string, detail?: string) => void;
type SignedIntent = PaymentIntent & { authorization: NonNullable<PaymentIntent['authorization']> };
type PaymentRow = { id: string; status: string; from_address: string; authorization_nonce: string };

/** The services' side: gasless payments by authorization, and the relay's rows by payment. */
const readRecords = async (db: pg.Client) => {
  const rows = (
    await db.query(
      `select id, status, from_address, authorization_nonce from payments.payments where funding = 'authorization'`,
    )
  ).rows as PaymentRow[];
  const byKey = new Map<string, PaymentRow[]>();
  for (const r of rows) {
    const k = keyOf(r.from_address, r.authorization_nonce);
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const relay = new Map(
    (
      await db.query(
        'select payment_id, step, used_tx_hash, relayed_tx_hash from chain_watcher.gasless_payments',
      )
    ).rows.map((r) => [r.payment_id as string, r as { step: string; used_tx_hash: string | null }]),
  );
  const relayTxs = (
    await db.query(
      'select payment_id, tx_hash, kind, relayer_nonce::text from chain_watcher.gasless_relay_transactions',
    )
  ).rows as RelayRow[];
  const txsOf = new Map<string, RelayRow[]>();
  for (const t of relayTxs) txsOf.set(t.payment_id, [...(txsOf.get(t.payment_id) ?? []), t]);
  return { byKey, relay, relayTxs, txsOf };
};

/**
 * One accepted payment's settlement: handed over by the relay, its relay transactions mined exactly
 * once, one successful call and one AuthorizationUsed on the chain (in the transaction the
 * chain-watcher settled on), and in it one Transfer of the authorised total to the merchant wallet.
 */
const checkSettlement = (
  add: Add,
  p: SignedIntent,
  paymentId: string,
  records: Awaited<ReturnType<typeof readRecords>>,
  chain: ChainView,
) => {
  const k = keyOf(p.authorization.from, p.authorization.nonce);
  const watcher = records.relay.get(paymentId);
  if (watcher?.step !== 'handed_over' || !watcher.used_tx_hash)
    add('gasless payments the relay did not hand over', `${paymentId}: ${watcher?.step ?? 'no row'}`);
  // The relay's own record: of its transactions for this payment, exactly one mined.
  const calls = chain.calls.get(k) ?? [];
  const mined = (records.txsOf.get(paymentId) ?? []).filter((t) =>
    calls.some((c) => c.hash === lower(t.tx_hash)),
  );
  if (mined.length !== 1)
    add('gasless payments without exactly one mined relay transaction', `${paymentId}: ${mined.length}`);
  // The chain's record, whoever sent it: one call for the authorization, and it succeeded.
  if (calls.length !== 1 || !calls[0]!.ok)
    add(
      'authorizations sent other than exactly once',
      `${paymentId}: ${calls.map((c) => `${c.hash} ${c.ok ? 'ok' : 'reverted'}`).join(', ') || 'none mined'}`,
    );
  const used = chain.used.get(k) ?? [];
  if (used.length !== 1)
    add('gasless payments without exactly one AuthorizationUsed', `${paymentId}: ${used.length}`);
  else if (watcher?.used_tx_hash && lower(watcher.used_tx_hash) !== used[0])
    add(
      'gasless payments settled on another transaction',
      `${paymentId}: ${watcher.used_tx_hash} vs ${used[0]}`,
    );
  const paid = used.flatMap((tx) => chain.transfersOut.get(tx) ?? []);
  const toMerchant = paid.filter((t) => t.to === lower(p.authorization.to));
  if (toMerchant.length !== 1 || toMerchant[0]!.value !== p.authorization.value)
    add(
      'gasless payments whose merchant did not receive the total once',
      `${paymentId}: ${toMerchant.map((t) => formatUnits(t.value, 6)).join(', ') || 'nothing'} for ${formatUnits(p.authorization.value, 6)}`,
    );
};

const checkPayersHoldNoGas = async (base: DevnetChain, payers: string[], add: Add) => {
  const provider = new JsonRpcProvider(base.rpcUrl, base.chainId, { staticNetwork: true });
  try {
    for (const address of payers) {
      const wei = await provider.getBalance(address);
      if (wei !== 0n) add('gasless payers holding the native token', `${address}: ${wei} wei`);
    }
  } finally {
    provider.destroy();
  }
};

/**
 * Gasless payments, each proved exactly once from the payments service, the chain-watcher's relay
 * tables and the chain: one payment per signed authorization, completed; the relay's transactions
 * for it mined exactly once (a replacement that never mined is fine, a second mined one is not); one
 * AuthorizationUsed and one Transfer of the authorised value to the merchant wallet; nothing else
 * out of the payer; and the payer never held gas. Returns notes for the report.
 */
export const countGaslessBrokenPromises = async (opts: {
  db: pg.Client;
  load: LoadGenerator;
  base: DevnetChain;
  add: Add;
}): Promise<string[]> => {
  const { load, add } = opts;
  const intents = load.payments.filter(
    (p): p is SignedIntent => p.kind === 'gasless' && p.authorization !== undefined,
  );
  const records = await readRecords(opts.db);
  const payers = load.gaslessPayers.map((w) => w.address);
  const chain = await readChain(opts.base, payers);

  for (const p of intents) {
    const k = keyOf(p.authorization.from, p.authorization.nonce);
    const found = records.byKey.get(k) ?? [];
    if (!p.paymentId) {
      add(
        found.length > 0 ? 'gasless payments made though refused' : 'gasless payments refused',
        `${k}: ${p.status}`,
      );
      continue;
    }
    if (found.length === 0) add('gasless payments lost', `${p.paymentId} (${k})`);
    if (found.length > 1) add('gasless payments duplicated', `${k}: ${found.map((r) => r.id).join(', ')}`);
    const row = found[0];
    if (!row) continue;
    if (row.id !== p.paymentId)
      add('gasless payments answered with another id', `${p.paymentId} vs ${row.id}`);
    if (row.status !== 'completed') add('gasless payments not completed', `${row.id} is ${row.status}`);
    checkSettlement(add, p, row.id, records, chain);
  }
  const signed = new Set(intents.map((p) => keyOf(p.authorization.from, p.authorization.nonce)));
  for (const [k, found] of records.byKey)
    if (!signed.has(k)) add('gasless payments nobody signed', `${k}: ${found.map((r) => r.id).join(', ')}`);
  // Out of a payer, only what its authorizations moved.
  const usedTxs = new Set([...chain.used.values()].flat());
  for (const [tx, list] of chain.transfersOut)
    if (!usedTxs.has(tx))
      add('transfers out of a gasless payer that no authorization made', `${tx}: ${list.length}`);
  await checkPayersHoldNoGas(opts.base, payers, add);

  const kinds = new Map<string, number>();
  for (const t of records.relayTxs) kinds.set(t.kind, (kinds.get(t.kind) ?? 0) + 1);
  const minedCalls = [...chain.calls.values()].flat();
  return [
    `gasless: ${intents.filter((p) => p.paymentId).length} accepted of ${intents.length} signed; relay transactions signed: ${records.relayTxs.length} (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}), authorization calls mined: ${minedCalls.length} (${minedCalls.filter((c) => !c.ok).length} reverted)`,
  ];
};

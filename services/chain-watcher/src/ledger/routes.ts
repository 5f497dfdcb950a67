import { CSV_CONTENT_TYPE, type BalanceTransactionListQuery } from '@stablepay/contracts';
import { ok, type HandlerOf } from '@stablepay/platform';
import type { Request } from 'express';
import type { WatcherContext } from '../context/watcher-context.js';
import { exportBalanceTransactions, listBalanceTransactions, toCsv } from './balance-transactions.js';

type List = HandlerOf<'listBalanceTransactions'> & HandlerOf<'listBalanceTransactionsApi'>;

/** `format=csv` wins; without a format, an Accept header naming text/csv asks for the export. */
const wantsCsv = (req: Request, q: BalanceTransactionListQuery): boolean =>
  q.format === 'csv' || (q.format === undefined && /\btext\/csv\b/i.test(req.get('accept') ?? ''));

/** GET /balance-transactions (jwt) and /balance-transactions/api/list (key): the caller's merchant only. */
export const ledgerRoutes = (ctx: WatcherContext) => {
  const list: List = async ({ query, merchant, req, res }) => {
    if (!wantsCsv(req, query)) {
      ok(res, await listBalanceTransactions(ctx.db, merchant.merchantId, query));
      return;
    }
    const csv = toCsv(await exportBalanceTransactions(ctx.db, merchant.merchantId, query));
    const day = new Date().toISOString().slice(0, 10);
    res.status(200);
    res.setHeader('Content-Type', CSV_CONTENT_TYPE);
    res.setHeader('Content-Disposition', `attachment; filename="balance-transactions-${day}.csv"`);
    res.end(csv);
  };
  return { listBalanceTransactions: list, listBalanceTransactionsApi: list };
};

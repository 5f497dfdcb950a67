import { formatAmount, formatDateTime } from '../../../format.js';
import { chainIdOf } from '../../chains.js';
import { useDashboard } from '../../context.js';
import type { PublicChain } from '../../explorer.js';
import { OnChain } from '../../OnChain.js';
import { href } from '../../router.js';
import type { BalanceTransaction } from './types.js';

/**
 * A signed amount as a person reads it: "+25.00" in, "−1.50" out (the minus sign, which screen
 * readers say as "minus"), and a movement of nothing without a sign.
 */
export const signedAmount = (amount: string, lang: string): string => {
  const shown = formatAmount(amount.replace(/^-/, ''), lang);
  if (/^-?0+(\.0+)?$/.test(amount)) return shown;
  return `${amount.startsWith('-') ? '\u2212' : '+'}${shown}`;
};

/** The ledger's rows: what moved, by how much, the balance after it, what it belongs to and its transaction. */
export const BalanceTable = ({ rows, chains }: { rows: BalanceTransaction[]; chains: PublicChain[] }) => {
  const { t, lang } = useDashboard();
  return (
    <div class="table-wrap">
      <table class="list balance-transactions">
        <caption class="visually-hidden">{t('btTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('colDate')}</th>
            <th scope="col">{t('btType')}</th>
            <th scope="col" class="num">
              {t('colAmount')}
            </th>
            <th scope="col" class="num">
              {t('btBalanceAfter')}
            </th>
            <th scope="col">{t('btFor')}</th>
            <th scope="col">{t('colTx')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-balance-transaction={r.type} data-id={r.id}>
              <td data-label={t('colDate')}>
                <time dateTime={r.created_at}>{formatDateTime(r.created_at, lang)}</time>
              </td>
              <td data-label={t('btType')}>{t(`bt_${r.type}`)}</td>
              <td
                data-label={t('colAmount')}
                class={`num ${r.amount.startsWith('-') ? 'amount-out' : 'amount-in'}`}
                data-amount={r.amount}
              >
                {signedAmount(r.amount, lang)} {r.currency}
              </td>
              <td data-label={t('btBalanceAfter')} class="num" data-balance-after={r.balance_after}>
                {formatAmount(r.balance_after, lang)} {r.currency}
              </td>
              <td data-label={t('btFor')}>
                <Related row={r} />
              </td>
              <td data-label={t('colTx')}>
                <OnChain
                  value={r.tx_hash}
                  chainId={chainIdOf(chains, r.blockchain)}
                  kind="tx"
                  label={t('colTx')}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

/** Links to the payment, refund or withdrawal a row belongs to (an unattributed arrival has none). */
const Related = ({ row }: { row: BalanceTransaction }) => {
  const { t } = useDashboard();
  const links = [
    row.payment_id && { to: `/payments/${row.payment_id}`, label: t('btSeePayment') },
    row.refund_id && { to: `/refunds/${row.refund_id}`, label: t('btSeeRefund') },
    row.withdrawal_id && { to: `/money/withdrawals/${row.withdrawal_id}`, label: t('btSeeWithdrawal') },
  ].filter((l): l is { to: string; label: string } => !!l);
  if (links.length === 0) return <span class="muted">—</span>;
  return (
    <span class="related">
      {links.map((l) => (
        <a key={l.to} href={href(l.to)}>
          {l.label}
        </a>
      ))}
    </span>
  );
};

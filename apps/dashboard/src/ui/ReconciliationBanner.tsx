import { formatDateTime, formatMoney } from '../format.js';
import { chainName } from './chain-name.js';
import { useDashboard } from './context.js';
import { useLoad } from './use-load.js';

/**
 * On every screen while the latest comparison of the ledger with the chain finds a wallet holding
 * another amount than the recorded payments, refunds and withdrawals explain: money moved that the
 * service did not move. Read again on each change of screen; it says nothing while all agree.
 */
export const ReconciliationBanner = ({ section }: { section: string }) => {
  const { session, t, lang } = useDashboard();
  const [loaded] = useLoad(() => session.call('getReconciliation'), [section]);
  if (loaded.state !== 'ready' || loaded.data.discrepancies === 0) return null;
  const { data } = loaded;
  const money = (amount: string | null, token: string) => formatMoney(amount ?? '0', token, lang);
  return (
    <section class="reconciliation-banner" role="alert" aria-labelledby="reconciliation-title">
      <h2 id="reconciliation-title">{t('reconciliationTitle')}</h2>
      {data.wallets
        .filter((w) => w.status === 'discrepancy')
        .map((w) => (
          <p key={`${w.blockchain}-${w.address}-${w.token}`}>
            {t('reconciliationMismatch', {
              chain: chainName(w.blockchain),
              address: w.address,
              onchain: money(w.onchain_balance, w.token),
              ledger: money(w.ledger_balance, w.token),
            })}
          </p>
        ))}
      <p class="muted">
        {t('reconciliationCheckedAt', {
          block: String(data.wallets.find((w) => w.status === 'discrepancy')?.block_number ?? ''),
          time: formatDateTime(data.checked_at, lang),
        })}
      </p>
    </section>
  );
};

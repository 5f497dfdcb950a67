import { formatAmount, shortHex } from '../../format.js';
import { chainName } from '../chain-name.js';
import { Attention } from './Attention.js';
import { LoadView } from '../common.js';
import { useDashboard } from '../context.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import { PaymentsTable } from './payments/payments-table.js';

/** The merchant's wallet balance per token, recent payments, and what needs attention. */
export const Home = () => {
  const { session, t, lang } = useDashboard();
  const [balance, reloadBalance] = useLoad(() => session.call('getWalletBalanceDashboard'), []);
  const [recent, reloadRecent] = useLoad(
    () =>
      session.call('listPayments', {
        query: { limit: 5, sortBy: 'created_at', sortDirection: 'desc' },
      }),
    [],
  );

  return (
    <>
      <h1>{t('homeTitle')}</h1>
      <Attention />
      <section class="card" aria-labelledby="balance-title">
        <h2 id="balance-title">{t('balanceTitle')}</h2>
        <LoadView loaded={balance} t={t} reload={reloadBalance}>
          {(b) => (
            <>
              <ul class="balances">
                {b.balances.map((x) => (
                  <li key={x.token} data-balance={x.token}>
                    <span class="balance-amount">{formatAmount(x.amount, lang)}</span>{' '}
                    <span class="currency">{x.token}</span>
                  </li>
                ))}
              </ul>
              <p class="muted" title={b.address}>
                {t('walletOn', { address: shortHex(b.address), chain: chainName(b.blockchain) })}
              </p>
            </>
          )}
        </LoadView>
      </section>
      <section class="card" aria-labelledby="recent-title">
        <h2 id="recent-title">{t('recentPayments')}</h2>
        <LoadView loaded={recent} t={t} reload={reloadRecent}>
          {(page) =>
            page.payments.length === 0 ? (
              <p class="muted">{t('noPayments')}</p>
            ) : (
              <>
                <PaymentsTable payments={page.payments} caption={t('recentPayments')} />
                <p>
                  <a href={href('/payments')}>{t('allPayments')}</a>
                </p>
              </>
            )
          }
        </LoadView>
      </section>
    </>
  );
};

import { useState } from 'preact/hooks';
import { formatAmount, formatDateTime, shortHex } from '../../../format.js';
import { LoadView, Pager, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { MoneyNav } from './MoneyNav.js';
import { WithdrawalForm } from './WithdrawalForm.js';

const PAGE = 20;

/** The withdrawal form and every withdrawal, newest first, in pages. */
export const Withdrawals = () => {
  const { session, t, lang } = useDashboard();
  const [offset, setOffset] = useState(0);
  const [page, reload] = useLoad(
    () => session.call('listWithdrawals', { query: { limit: PAGE, offset } }),
    [offset],
  );

  return (
    <>
      <h1>{t('navMoney')}</h1>
      <MoneyNav current="/money" />
      <WithdrawalForm onCreated={reload} />
      <section class="card" aria-labelledby="withdrawals-title">
        <h2 id="withdrawals-title">{t('withdrawalsTitle')}</h2>
        <LoadView loaded={page} t={t} reload={reload}>
          {(p) =>
            p.withdrawals.length === 0 ? (
              <p class="muted">{t('noWithdrawals')}</p>
            ) : (
              <>
                <div class="table-wrap">
                  <table class="list" data-total={p.total}>
                    <caption class="visually-hidden">{t('withdrawalsTitle')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('colDate')}</th>
                        <th scope="col" class="num">
                          {t('colAmount')}
                        </th>
                        <th scope="col" class="num">
                          {t('fee')}
                        </th>
                        <th scope="col">{t('colStatus')}</th>
                        <th scope="col">{t('destination')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.withdrawals.map((w) => (
                        <tr key={w.id} data-withdrawal-id={w.id}>
                          <td data-label={t('colDate')}>
                            <a href={href(`/money/withdrawals/${w.id}`)}>
                              {formatDateTime(w.created_at, lang)}
                            </a>
                          </td>
                          <td data-label={t('colAmount')} class="num">
                            {formatAmount(w.amount, lang)} {w.currency}
                          </td>
                          <td data-label={t('fee')} class="num">
                            {formatAmount(w.fee, lang)}
                          </td>
                          <td data-label={t('colStatus')}>
                            <StatusBadge status={w.status} t={t} />
                          </td>
                          <td data-label={t('destination')}>
                            <code title={w.destination_address}>{shortHex(w.destination_address)}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {p.total > PAGE && (
                  <Pager
                    t={t}
                    offset={p.offset}
                    shown={p.withdrawals.length}
                    total={p.total}
                    pageSize={PAGE}
                    onOffset={(o) => setOffset(o)}
                  />
                )}
              </>
            )
          }
        </LoadView>
      </section>
    </>
  );
};

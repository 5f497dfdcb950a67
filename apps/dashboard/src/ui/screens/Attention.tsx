import { formatAmount } from '../../format.js';
import { Alert, LoadView } from '../common.js';
import { useDashboard } from '../context.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';

/** Pending refunds looked at for "waiting for funds" (each needs its detail). */
const PENDING_LOOKED_AT = 10;
const SHOWN = 5;

interface Item {
  kind: 'webhook-disabled' | 'refund-failed' | 'refund-waiting' | 'withdrawal-failed';
  key: string;
  text: string;
  link: string;
  linkText: string;
}

/**
 * What the merchant should act on: a disabled webhook endpoint, a failed refund, a refund waiting
 * for the wallet to hold enough, a failed withdrawal. Each source is read on its own, so one that
 * cannot be read does not hide the others.
 */
export const Attention = () => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useLoad(async () => {
    const money = (amount: string, currency: string) => `${formatAmount(amount, lang)} ${currency}`;
    const [endpoints, failedRefunds, pendingRefunds, failedWithdrawals] = await Promise.allSettled([
      session.call('listWebhooksDashboard'),
      session.call('listRefundsDashboard', { query: { status: 'failed', limit: SHOWN } }),
      session.call('listRefundsDashboard', { query: { status: 'pending', limit: PENDING_LOOKED_AT } }),
      session.call('listWithdrawals', { query: { status: 'failed', limit: SHOWN } }),
    ]);
    const items: Item[] = [];
    let unreadable = 0;
    if (endpoints.status === 'fulfilled') {
      for (const e of endpoints.value.filter((x) => !x.is_active))
        items.push({
          kind: 'webhook-disabled',
          key: e.id,
          text: t('attentionWebhook', { url: e.url }),
          link: href(`/developers/webhooks/${e.id}`),
          linkText: t('attentionWebhookAction'),
        });
    } else unreadable++;
    if (failedRefunds.status === 'fulfilled') {
      for (const r of failedRefunds.value.refunds)
        items.push({
          kind: 'refund-failed',
          key: r.id,
          text: t('attentionRefundFailed', { amount: money(r.amount, r.currency) }),
          link: href(`/refunds/${r.id}`),
          linkText: t('attentionSeeRefund'),
        });
    } else unreadable++;
    if (pendingRefunds.status === 'fulfilled') {
      const details = await Promise.allSettled(
        pendingRefunds.value.refunds.map((r) => session.call('getRefundDashboard', { params: { id: r.id } })),
      );
      for (const d of details)
        if (d.status === 'fulfilled' && d.value.waiting_for_funds)
          items.push({
            kind: 'refund-waiting',
            key: d.value.id,
            text: t('attentionRefundWaiting', {
              amount: money(d.value.amount, d.value.currency),
              currency: d.value.currency,
            }),
            link: href(`/refunds/${d.value.id}`),
            linkText: t('attentionSeeRefund'),
          });
    } else unreadable++;
    if (failedWithdrawals.status === 'fulfilled') {
      for (const w of failedWithdrawals.value.withdrawals)
        items.push({
          kind: 'withdrawal-failed',
          key: w.id,
          text: t('attentionWithdrawalFailed', { amount: money(w.amount, w.currency) }),
          link: href(`/money/withdrawals/${w.id}`),
          linkText: t('attentionSeeWithdrawal'),
        });
    } else unreadable++;
    return { items, unreadable };
  }, [lang]);

  return (
    <section class="card attention" aria-labelledby="attention-title">
      <h2 id="attention-title">{t('attention')}</h2>
      <LoadView loaded={loaded} t={t} reload={reload}>
        {({ items, unreadable }) => (
          <>
            {items.length === 0 ? (
              <p class="muted" data-attention-empty>
                {t('nothingNeedsAttention')}
              </p>
            ) : (
              <ul class="attention-list">
                {items.map((i) => (
                  <li key={`${i.kind}-${i.key}`} data-attention={i.kind}>
                    <span id={`attention-${i.key}`}>{i.text}</span>{' '}
                    <a href={i.link} aria-describedby={`attention-${i.key}`}>
                      {i.linkText}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            {unreadable > 0 && <Alert>{t('attentionPartly')}</Alert>}
          </>
        )}
      </LoadView>
    </section>
  );
};

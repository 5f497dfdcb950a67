import type { Session } from '../../api/session.js';
import { formatMoney } from '../../format.js';
import type { Translate } from '../../i18n.js';
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

/** Each source of things to act on, read on its own: one that fails is counted, not fatal. */
const sources = (session: Session, t: Translate, lang: string): Array<Promise<Item[]>> => {
  const money = (amount: string, currency: string) => formatMoney(amount, currency, lang);
  const disabledEndpoints = async (): Promise<Item[]> =>
    (await session.call('listWebhooksDashboard'))
      .filter((e) => !e.is_active)
      .map((e) => ({
        kind: 'webhook-disabled',
        key: e.id,
        text: t('attentionWebhook', { url: e.url }),
        link: href(`/developers/webhooks/${e.id}`),
        linkText: t('attentionWebhookAction'),
      }));
  const failedRefunds = async (): Promise<Item[]> =>
    (await session.call('listRefundsDashboard', { query: { status: 'failed', limit: SHOWN } })).refunds.map(
      (r) => ({
        kind: 'refund-failed',
        key: r.id,
        text: t('attentionRefundFailed', { amount: money(r.amount, r.currency) }),
        link: href(`/refunds/${r.id}`),
        linkText: t('attentionSeeRefund'),
      }),
    );
  // Whether a pending refund waits for funds is in its detail only; a detail that fails is skipped.
  const waitingRefunds = async (): Promise<Item[]> => {
    const pending = await session.call('listRefundsDashboard', {
      query: { status: 'pending', limit: PENDING_LOOKED_AT },
    });
    const details = await Promise.allSettled(
      pending.refunds.map((r) => session.call('getRefundDashboard', { params: { id: r.id } })),
    );
    return details.flatMap((d) =>
      d.status === 'fulfilled' && d.value.waiting_for_funds
        ? [
            {
              kind: 'refund-waiting' as const,
              key: d.value.id,
              text: t('attentionRefundWaiting', {
                amount: money(d.value.amount, d.value.currency),
                currency: d.value.currency,
              }),
              link: href(`/refunds/${d.value.id}`),
              linkText: t('attentionSeeRefund'),
            },
          ]
        : [],
    );
  };
  const failedWithdrawals = async (): Promise<Item[]> =>
    (await session.call('listWithdrawals', { query: { status: 'failed', limit: SHOWN } })).withdrawals.map(
      (w) => ({
        kind: 'withdrawal-failed',
        key: w.id,
        text: t('attentionWithdrawalFailed', { amount: money(w.amount, w.currency) }),
        link: href(`/money/withdrawals/${w.id}`),
        linkText: t('attentionSeeWithdrawal'),
      }),
    );
  return [disabledEndpoints(), failedRefunds(), waitingRefunds(), failedWithdrawals()];
};

/**
 * What the merchant should act on: a disabled webhook endpoint, a failed refund, a refund waiting
 * for the wallet to hold enough, a failed withdrawal. Each source is read on its own, so one that
 * cannot be read does not hide the others.
 */
export const Attention = () => {
  const { session, t, lang } = useDashboard();
  const [loaded, reload] = useLoad(async () => {
    const settled = await Promise.allSettled(sources(session, t, lang));
    return {
      items: settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : [])),
      unreadable: settled.filter((s) => s.status === 'rejected').length,
    };
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

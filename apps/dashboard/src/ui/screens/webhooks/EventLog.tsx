import { useState } from 'preact/hooks';
import { formatDateTime, formatMoney } from '../../../format.js';
import { StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href } from '../../router.js';
import { ChoiceField } from '../../filters.js';
import { PagedList, pagingOf } from '../../list.js';
import { useLoad } from '../../use-load.js';
import type { Loaded } from '../../use-load.js';
import type { WebhookEventInfo } from './types.js';
import type { QueryOf, ResponseOf } from '../../../api/operations.js';

const PAGE = 20;

type MerchantEvent = ResponseOf<'listMerchantEventsDashboard'>['events'][number];

/** What the event was about, in a few words: its amount, when the data has one. */
const amountOf = (e: MerchantEvent, lang: string): string => {
  const { amount, currency } = e.data as { amount?: unknown; currency?: unknown };
  return typeof amount === 'string' && typeof currency === 'string'
    ? formatMoney(amount, currency, lang)
    : '';
};

const EventRow = ({ e }: { e: MerchantEvent }) => {
  const { t, lang } = useDashboard();
  const paymentId = typeof e.data.payment_id === 'string' ? e.data.payment_id : undefined;
  // An endpoint is reached once any sending of the event to it succeeded (a redelivery counts).
  const endpoints = new Set(e.deliveries.map((d) => d.endpoint_id));
  const reached = new Set(e.deliveries.filter((d) => d.status === 'succeeded').map((d) => d.endpoint_id));
  const missing = endpoints.size - reached.size;
  return (
    <li data-event-id={e.id} data-event-type={e.type}>
      <details>
        <summary>
          <code>{e.type}</code> <span>{amountOf(e, lang)}</span>{' '}
          <span class="muted small-text">
            {formatDateTime(e.created_at, lang)} ·{' '}
            {e.deliveries.length === 0
              ? t('eventNotSent')
              : missing > 0
                ? t('eventNotReached', { missing, count: endpoints.size })
                : t('eventReached', { count: endpoints.size })}
          </span>
        </summary>
        <dl class="details">
          <dt>{t('eventId')}</dt>
          <dd>
            <code>{e.id}</code>
          </dd>
          {paymentId && (
            <>
              <dt>{t('sessionPayment')}</dt>
              <dd>
                <a href={href(`/payments/${paymentId}`)}>{t('viewPayment')}</a>
              </dd>
            </>
          )}
          <dt>{t('eventSentTo')}</dt>
          <dd>
            {e.deliveries.length === 0 ? (
              <span class="muted">{t('eventNoEndpoint')}</span>
            ) : (
              <ul class="plain">
                {e.deliveries.map((d) => (
                  <li key={d.delivery_id} data-event-delivery={d.status}>
                    <a href={href(`/developers/webhooks/${d.endpoint_id}`)}>{d.endpoint_url}</a>{' '}
                    <StatusBadge status={d.status} t={t} />{' '}
                    <span class="muted small-text">
                      {t('attemptCount', { n: d.attempts })}
                      {d.trigger !== 'event' && ` · ${t(`trigger_${d.trigger}`)}`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>{t('eventData')}</dt>
          <dd>
            <pre data-event-data tabIndex={0}>
              {JSON.stringify(e.data, null, 2)}
            </pre>
          </dd>
        </dl>
      </details>
    </li>
  );
};

/**
 * The merchant's recent events, newest first, as its endpoints were sent them: each opens to the
 * data sent and where it went. Filtered by type (the subscribable events), in pages.
 */
export const EventLog = ({ types }: { types: Loaded<WebhookEventInfo[]> }) => {
  const { session, t } = useDashboard();
  const [type, setType] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, reload] = useLoad(() => {
    const query = { limit: PAGE, offset, type: type || undefined } as QueryOf<'listMerchantEventsDashboard'>;
    return session.call('listMerchantEventsDashboard', { query });
  }, [type, offset]);
  return (
    <section class="card" aria-labelledby="event-log-title">
      <div class="card-head">
        <h2 id="event-log-title">{t('eventsTitle')}</h2>
        <button type="button" class="secondary small" onClick={reload}>
          {t('refresh')}
        </button>
      </div>
      <p class="muted">{t('eventLogIntro')}</p>
      <ChoiceField
        id="event-type"
        label={t('eventType')}
        value={type}
        options={types.state === 'ready' ? types.data.map((e) => ({ value: e.name, label: e.name })) : []}
        onChoose={(next) => {
          setType(next);
          setOffset(0);
        }}
        inline
      />
      <PagedList
        loaded={page}
        reload={reload}
        paging={(p) => pagingOf(p, p.events)}
        onOffset={setOffset}
        empty={<p class="muted">{type ? t('noMatchingEvents') : t('noEventsYet')}</p>}
      >
        {(p) => (
          <ul class="deliveries" data-event-total={p.total}>
            {p.events.map((e) => (
              <EventRow key={e.id} e={e} />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
};

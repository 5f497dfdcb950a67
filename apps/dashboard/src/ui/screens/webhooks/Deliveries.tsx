import { useEffect, useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useLoad } from '../../use-load.js';
import { ReplayForm } from './ReplayForm.js';
import type { WebhookDelivery, WebhookEndpoint } from './types.js';
import { DetailList } from '../../detail.js';
import { useSubmit } from '../../form.js';

const PAGE_SIZES = [20, 50, 100] as const;

/**
 * The endpoint's delivery log, newest first: each attempt opens to show the payload sent and the
 * answer received, and can be sent again. Followed while an attempt is pending.
 */
export const Deliveries = ({
  endpoint,
  round,
  onQueued,
}: {
  endpoint: WebhookEndpoint;
  round: number;
  onQueued: () => void;
}) => {
  const { session, t } = useDashboard();
  const [limit, setLimit] = useState<number>(20);
  const [logs, reload] = useLoad(
    async () =>
      (
        await session.call('getWebhookLogsDashboard', {
          params: { id: endpoint.id },
          query: { limit },
        })
      ).logs,
    [endpoint.id, limit, round],
  );
  const pending = logs.state === 'ready' && logs.data.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [pending, reload]);

  return (
    <>
      <section class="card" aria-labelledby="deliveries-title">
        <div class="card-head">
          <h2 id="deliveries-title">{t('deliveryLog')}</h2>
          <div class="field inline-field">
            <label for="log-limit">{t('pageSize')}</label>
            <select id="log-limit" value={limit} onChange={(e) => setLimit(Number(e.currentTarget.value))}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <button type="button" class="secondary small" onClick={reload}>
              {t('refresh')}
            </button>
          </div>
        </div>
        <LoadView loaded={logs} t={t} reload={reload}>
          {(list) =>
            list.length === 0 ? (
              <p class="muted">{t('noDeliveries')}</p>
            ) : (
              <ul class="deliveries">
                {list.map((d) => (
                  <DeliveryItem key={d.id} endpointId={endpoint.id} delivery={d} onQueued={onQueued} />
                ))}
              </ul>
            )
          }
        </LoadView>
      </section>
      <ReplayForm endpoint={endpoint} onQueued={onQueued} />
    </>
  );
};

const DeliveryItem = ({
  endpointId,
  delivery: d,
  onQueued,
}: {
  endpointId: string;
  delivery: WebhookDelivery;
  onQueued: () => void;
}) => {
  const { session, t, lang } = useDashboard();
  const { busy, error, submit } = useSubmit();
  const redeliver = async () => {
    await session.call('redeliverWebhookDashboard', { params: { id: endpointId, deliveryId: d.id } });
    onQueued();
  };
  const answer =
    d.response_status !== null ? `HTTP ${d.response_status}` : d.status === 'pending' ? '…' : t('noAnswer');
  return (
    <li data-delivery-id={d.id} data-delivery-status={d.status}>
      <details>
        <summary>
          <code>{d.event}</code> <StatusBadge status={d.status} t={t} />
          {d.is_test && <span class="badge badge-test">{t('testBadge')}</span>}
          {(d.trigger === 'redeliver' || d.trigger === 'replay') && (
            <span class="badge badge-test">{t(`trigger_${d.trigger}`)}</span>
          )}{' '}
          <span class="muted small-text">
            {answer}
            {d.response_time_ms !== null && ` · ${d.response_time_ms} ms`} · {t('attemptN', { n: d.attempt })}{' '}
            · {formatDateTime(d.created_at, lang)}
          </span>
        </summary>
        <DetailList
          items={[
            { label: t('eventId'), value: <code>{d.event_id}</code> },
            !!d.error && { label: t('deliveryError'), value: d.error },
            {
              label: t('responseBody'),
              value: d.response_body_excerpt ? (
                <pre tabIndex={0}>{d.response_body_excerpt}</pre>
              ) : (
                <span class="muted">—</span>
              ),
            },
            {
              label: t('payloadSent'),
              value: (
                <pre data-payload tabIndex={0}>
                  {JSON.stringify(d.payload, null, 2)}
                </pre>
              ),
            },
          ]}
        />
        <div class="actions">
          <button
            type="button"
            class="secondary small"
            disabled={busy}
            onClick={() => void submit(redeliver)}
          >
            {t('redeliver')}
          </button>
        </div>
        {error && <Alert>{error}</Alert>}
      </details>
    </li>
  );
};

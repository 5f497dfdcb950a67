import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { href, navigate } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { Deliveries } from './Deliveries.js';
import { EditEndpoint } from './EditEndpoint.js';
import { EndpointActions } from './EndpointActions.js';
import { FAILURES_BEFORE_DISABLE, type WebhookEndpoint } from './types.js';

/** One endpoint: its state (re-enable, disable), settings, secret, test send, delivery log and replay. */
export const WebhookDetail = ({ id }: { id: string }) => {
  const { session, t, lang } = useDashboard();
  const [endpoint, reload] = useLoad(() => session.call('getWebhookDashboard', { params: { id } }), [id]);
  const [events] = useLoad(() => session.call('listWebhookEventsDashboard'), []);
  // Bumped after anything that adds a delivery, so the log shows it.
  const [logRound, setLogRound] = useState(0);

  return (
    <>
      <p>
        <a href={href('/developers')}>{t('backToDevelopers')}</a>
      </p>
      <LoadView loaded={endpoint} t={t} reload={reload}>
        {(e) => (
          <>
            <h1>
              {t('webhookEndpoint')} <StatusBadge status={e.is_active ? 'active' : 'disabled'} t={t} />
            </h1>
            <p class="endpoint-url">
              <code>{e.url}</code>
            </p>
            <ActiveState endpoint={e} onChanged={reload} />
            <div class="columns">
              <div>
                <Deliveries endpoint={e} round={logRound} onQueued={() => setLogRound((r) => r + 1)} />
              </div>
              <div>
                <EndpointActions endpoint={e} onSent={() => setLogRound((r) => r + 1)} />
                {events.state === 'ready' && (
                  <EditEndpoint endpoint={e} events={events.data} onSaved={reload} />
                )}
                <DeleteEndpoint endpoint={e} />
                <p class="muted small-text">
                  {t('createdOn', { date: formatDateTime(e.created_at, lang) })} · ID <code>{e.id}</code>
                </p>
              </div>
            </div>
          </>
        )}
      </LoadView>
    </>
  );
};

/**
 * Whether deliveries go out. An endpoint the service disabled after failures says so and offers
 * to re-enable it (which resets the count); an active one can be paused.
 */
const ActiveState = ({ endpoint, onChanged }: { endpoint: WebhookEndpoint; onChanged: () => void }) => {
  const { session, t } = useDashboard();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const set = async (active: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      await session.call('updateWebhookDashboard', {
        params: { id: endpoint.id },
        body: { is_active: active },
      });
      setDone(active ? t('webhookEnabled') : t('webhookDisabled'));
      onChanged();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  const autoDisabled = !endpoint.is_active && endpoint.failure_count >= FAILURES_BEFORE_DISABLE;
  return (
    <section
      class={`card state ${endpoint.is_active ? '' : 'state-off'}`}
      aria-labelledby="endpoint-state-title"
    >
      <h2 id="endpoint-state-title">{t('deliveryState')}</h2>
      {endpoint.is_active ? (
        <p>
          {endpoint.failure_count > 0
            ? t('activeWithFailures', { count: endpoint.failure_count, max: FAILURES_BEFORE_DISABLE })
            : t('activeHealthy')}
        </p>
      ) : (
        <p data-disabled-reason>
          {autoDisabled ? t('disabledAfterFailures', { count: endpoint.failure_count }) : t('disabledByYou')}
        </p>
      )}
      <div class="actions">
        {endpoint.is_active ? (
          <button type="button" class="secondary" disabled={busy} onClick={() => void set(false)}>
            {t('disableWebhook')}
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void set(true)}>
            {t('enableWebhook')}
          </button>
        )}
      </div>
      {done && <Alert kind="ok">{done}</Alert>}
      {error && <Alert>{error}</Alert>}
    </section>
  );
};

const DeleteEndpoint = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const { session, t } = useDashboard();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <section class="card" aria-labelledby="delete-endpoint-title">
      <h2 id="delete-endpoint-title">{t('deleteWebhook')}</h2>
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('confirmDeleteWebhookLabel')}>
          <p>{t('confirmDeleteWebhook')}</p>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              try {
                await session.call('deleteWebhookDashboard', { params: { id: endpoint.id } });
                navigate('/developers');
              } catch (err) {
                setError(errorText(t, err));
              }
            }}
          >
            {t('deleteWebhook')}
          </button>{' '}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepWebhook')}
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t('deleteWebhookEllipsis')}
        </button>
      )}
      {error && <Alert>{error}</Alert>}
    </section>
  );
};

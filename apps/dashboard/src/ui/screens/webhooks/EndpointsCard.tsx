import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format.js';
import { Alert, LoadView, StatusBadge, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { TitledForm } from '../../form.js';
import { href } from '../../router.js';
import type { Loaded } from '../../use-load.js';
import { useLoad } from '../../use-load.js';
import { EventChoice } from './EventChoice.js';
import { NewSecret } from './NewSecret.js';
import { DESCRIPTION_MAX, type EventName, type WebhookEventInfo } from './types.js';

/** The merchant's webhook endpoints, each linking to its page, and the form that adds one. */
export const EndpointsCard = ({ events }: { events: Loaded<WebhookEventInfo[]> }) => {
  const { session, t, lang } = useDashboard();
  const [endpoints, reload] = useLoad(() => session.call('listWebhooksDashboard'), []);
  const [created, setCreated] = useState<{ id: string; url: string; secret: string }>();

  return (
    <section class="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t('webhookEndpoints')}</h2>
      <p class="muted">{t('webhookEndpointsIntro')}</p>
      {created && (
        <NewSecret
          title={t('webhookCreated', { url: created.url })}
          secret={created.secret}
          onDismiss={() => setCreated(undefined)}
        />
      )}
      <LoadView loaded={endpoints} t={t} reload={reload}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">{t('noWebhooks')}</p>
          ) : (
            <ul class="endpoints">
              {list.map((e) => (
                <li key={e.id} data-endpoint-id={e.id}>
                  <div class="endpoint-line">
                    <a href={href(`/developers/webhooks/${e.id}`)}>
                      <code>{e.url}</code>
                    </a>{' '}
                    <StatusBadge status={e.is_active ? 'active' : 'disabled'} t={t} />
                  </div>
                  <div class="muted small-text">
                    {e.description ? `${e.description} · ` : ''}
                    {e.events.join(', ')} · {t('createdOn', { date: formatDateTime(e.created_at, lang) })}
                    {e.failure_count > 0 && ` · ${t('failuresInARow', { count: e.failure_count })}`}
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </LoadView>
      {events.state === 'ready' && (
        <CreateEndpoint
          events={events.data}
          onCreated={(e) => {
            setCreated(e);
            reload();
          }}
        />
      )}
    </section>
  );
};

const CreateEndpoint = ({
  events,
  onCreated,
}: {
  events: WebhookEventInfo[];
  onCreated: (e: { id: string; url: string; secret: string }) => void;
}) => {
  const { session, t } = useDashboard();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<EventName[]>(() => events.map((e) => e.name));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setError(t('webhookUrlInvalid'));
    if (chosen.length === 0) return setError(t('webhookEventsRequired'));
    setBusy(true);
    try {
      const made = await session.call('createWebhookDashboard', {
        body: {
          url: url.trim(),
          events: chosen,
          ...(description.trim() ? { description: description.trim() } : {}),
        },
      });
      setUrl('');
      setDescription('');
      onCreated({ id: made.id, url: made.url, secret: made.secret });
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <TitledForm id="new-webhook" title={t('addWebhook')} level={3} class="form sub-form" onSubmit={submit}>
      <label for="webhook-url">{t('webhookUrl')}</label>
      <input
        id="webhook-url"
        type="url"
        inputMode="url"
        autoComplete="off"
        value={url}
        placeholder="https://shop.example/webhooks/stablepay"
        onInput={(ev) => setUrl(ev.currentTarget.value)}
        aria-describedby="webhook-url-hint"
      />
      <p id="webhook-url-hint" class="hint">
        {t('webhookUrlHint')}
      </p>
      <label for="webhook-description">{t('webhookDescription')}</label>
      <input
        id="webhook-description"
        maxLength={DESCRIPTION_MAX}
        value={description}
        onInput={(ev) => setDescription(ev.currentTarget.value)}
      />
      <EventChoice idPrefix="new-webhook" events={events} chosen={chosen} onChange={setChosen} t={t} />
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? t('saving') : t('addWebhookButton')}
        </button>
      </div>
    </TitledForm>
  );
};

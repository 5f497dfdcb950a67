import { useState } from 'preact/hooks';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { EventChoice } from './EventChoice.js';
import { DESCRIPTION_MAX, type WebhookEndpoint, type WebhookEventInfo } from './types.js';
import type { BodyOf } from '../../../api/operations.js';

/** The endpoint's URL, description and events; only what changed is sent. */
export const EditEndpoint = ({
  endpoint,
  events,
  onSaved,
}: {
  endpoint: WebhookEndpoint;
  events: WebhookEventInfo[];
  onSaved: () => void;
}) => {
  const { session, t } = useDashboard();
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [chosen, setChosen] = useState(endpoint.events);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(false);
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setError(t('webhookUrlInvalid'));
    if (chosen.length === 0) return setError(t('webhookEventsRequired'));
    const changes: BodyOf<'updateWebhookDashboard'> = {};
    if (url.trim() !== endpoint.url) changes.url = url.trim();
    if ((description.trim() || null) !== endpoint.description)
      changes.description = description.trim() || null;
    if (chosen.join() !== endpoint.events.join()) changes.events = chosen;
    if (Object.keys(changes).length === 0) return setDone(true);
    setBusy(true);
    try {
      await session.call('updateWebhookDashboard', { params: { id: endpoint.id }, body: changes });
      setDone(true);
      onSaved();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="edit-endpoint-title">
      <h2 id="edit-endpoint-title">{t('endpointSettings')}</h2>
      <form class="form" onSubmit={submit} noValidate>
        <label for="edit-url">{t('webhookUrl')}</label>
        <input
          id="edit-url"
          type="url"
          autoComplete="off"
          value={url}
          onInput={(ev) => setUrl(ev.currentTarget.value)}
        />
        <label for="edit-description">{t('webhookDescription')}</label>
        <input
          id="edit-description"
          maxLength={DESCRIPTION_MAX}
          value={description}
          onInput={(ev) => setDescription(ev.currentTarget.value)}
        />
        <EventChoice idPrefix="edit-webhook" events={events} chosen={chosen} onChange={setChosen} t={t} />
        {error && <Alert>{error}</Alert>}
        {done && <Alert kind="ok">{t('saved')}</Alert>}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? t('saving') : t('saveChanges')}
          </button>
        </div>
      </form>
    </section>
  );
};

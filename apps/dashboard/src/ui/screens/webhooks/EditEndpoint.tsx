import { useState } from 'preact/hooks';
import { FormEnd, TextField, useSubmit } from '../../form.js';
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
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return t('webhookUrlInvalid');
    if (chosen.length === 0) return t('webhookEventsRequired');
    return undefined;
  };
  const save = async () => {
    const changes: BodyOf<'updateWebhookDashboard'> = {};
    if (url.trim() !== endpoint.url) changes.url = url.trim();
    if ((description.trim() || null) !== endpoint.description)
      changes.description = description.trim() || null;
    if (chosen.join() !== endpoint.events.join()) changes.events = chosen;
    if (Object.keys(changes).length === 0) return setDone(true);
    await session.call('updateWebhookDashboard', { params: { id: endpoint.id }, body: changes });
    setDone(true);
    onSaved();
  };

  return (
    <section class="card" aria-labelledby="edit-endpoint-title">
      <h2 id="edit-endpoint-title">{t('endpointSettings')}</h2>
      <form class="form" onSubmit={onSubmit(save, check, () => setDone(false))} noValidate>
        <TextField
          id="edit-url"
          label={t('webhookUrl')}
          type="url"
          autoComplete="off"
          value={url}
          onValue={setUrl}
        />
        <TextField
          id="edit-description"
          label={t('webhookDescription')}
          maxLength={DESCRIPTION_MAX}
          value={description}
          onValue={setDescription}
        />
        <EventChoice idPrefix="edit-webhook" events={events} chosen={chosen} onChange={setChosen} t={t} />
        <FormEnd
          error={error}
          done={done && t('saved')}
          busy={busy}
          label={busy ? t('saving') : t('saveChanges')}
        />
      </form>
    </section>
  );
};

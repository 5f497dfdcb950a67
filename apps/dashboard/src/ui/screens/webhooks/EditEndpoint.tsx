import { useState } from 'preact/hooks';
import { FormEnd, TextField, useFormFields, useSubmit } from '../../form.js';
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
  const { values, field } = useFormFields('edit', {
    url: endpoint.url,
    description: endpoint.description ?? '',
  });
  const url = values.url.trim();
  const description = values.description.trim() || null;
  const [chosen, setChosen] = useState(endpoint.events);
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    if (!/^https?:\/\/\S+$/i.test(url)) return t('webhookUrlInvalid');
    if (chosen.length === 0) return t('webhookEventsRequired');
    return undefined;
  };
  const save = async () => {
    const changes: BodyOf<'updateWebhookDashboard'> = {};
    if (url !== endpoint.url) changes.url = url;
    if (description !== endpoint.description) changes.description = description;
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
        <TextField {...field('url')} label={t('webhookUrl')} type="url" autoComplete="off" />
        <TextField {...field('description')} label={t('webhookDescription')} maxLength={DESCRIPTION_MAX} />
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

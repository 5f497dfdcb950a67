import { useState } from 'preact/hooks';
import { FormEnd, TextField, useSubmit } from '../../form.js';
import { useDashboard } from '../../context.js';
import type { WebhookEndpoint } from './types.js';

const MAX_DAYS = 30;

/** `datetime-local` wants local wall-clock time without a zone. */
const localInput = (d: Date): string => {
  const shifted = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
};

/** Sends every subscribed event since a moment again (at most 30 days back). */
export const ReplayForm = ({ endpoint, onQueued }: { endpoint: WebhookEndpoint; onQueued: () => void }) => {
  const { session, t } = useDashboard();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3_600_000)));
  const [done, setDone] = useState<string>();
  const { busy, error, onSubmit } = useSubmit();

  const check = () => {
    const at = new Date(since);
    return Number.isNaN(at.getTime()) || at.getTime() < Date.now() - MAX_DAYS * 86_400_000
      ? t('replaySinceInvalid', { days: MAX_DAYS })
      : undefined;
  };
  const replay = async () => {
    const r = await session.call('replayWebhooksDashboard', {
      params: { id: endpoint.id },
      body: { since: new Date(since).toISOString() },
    });
    setDone(t('replayQueued', { count: r.queued }));
    onQueued();
  };

  return (
    <section class="card" aria-labelledby="replay-title">
      <h2 id="replay-title">{t('replayTitle')}</h2>
      <form class="form" onSubmit={onSubmit(replay, check, () => setDone(undefined))} noValidate>
        <p class="muted">{t('replayIntro', { days: MAX_DAYS })}</p>
        <TextField
          id="replay-since"
          label={t('replaySince')}
          type="datetime-local"
          value={since}
          onValue={setSince}
        />
        <FormEnd error={error} done={done} busy={busy} label={t('replay')} buttonClass="secondary" />
      </form>
    </section>
  );
};

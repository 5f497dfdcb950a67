import { useState } from 'preact/hooks';
import { Alert, errorText } from '../../common.js';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(undefined);
    const at = new Date(since);
    if (Number.isNaN(at.getTime()) || at.getTime() < Date.now() - MAX_DAYS * 86_400_000) {
      return setError(t('replaySinceInvalid', { days: MAX_DAYS }));
    }
    setBusy(true);
    try {
      const r = await session.call('replayWebhooksDashboard', {
        params: { id: endpoint.id },
        body: { since: at.toISOString() },
      });
      setDone(t('replayQueued', { count: r.queued }));
      onQueued();
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="replay-title">
      <h2 id="replay-title">{t('replayTitle')}</h2>
      <form class="form" onSubmit={submit} noValidate>
        <p class="muted">{t('replayIntro', { days: MAX_DAYS })}</p>
        <label for="replay-since">{t('replaySince')}</label>
        <input
          id="replay-since"
          type="datetime-local"
          value={since}
          onInput={(ev) => setSince(ev.currentTarget.value)}
        />
        {error && <Alert>{error}</Alert>}
        {done && <Alert kind="ok">{done}</Alert>}
        <div class="actions">
          <button type="submit" class="secondary" disabled={busy}>
            {t('replay')}
          </button>
        </div>
      </form>
    </section>
  );
};

import { Fragment } from 'preact';
import { LoadView } from '../../common.js';
import { useDashboard } from '../../context.js';
import type { Loaded } from '../../use-load.js';
import { eventDescription } from './event-text.js';
import type { WebhookEventInfo } from './types.js';

/** Every event an endpoint can subscribe to, with what it means. */
export const EventsCard = ({
  events,
  reload,
}: {
  events: Loaded<WebhookEventInfo[]>;
  reload: () => void;
}) => {
  const { t } = useDashboard();
  return (
    <section class="card" aria-labelledby="event-types-title">
      <h2 id="event-types-title">{t('eventTypesTitle')}</h2>
      <p class="muted">{t('eventsIntro')}</p>
      <LoadView loaded={events} t={t} reload={reload}>
        {(list) => (
          <dl class="details events-list">
            {list.map((e) => (
              <Fragment key={e.name}>
                <dt>
                  <code>{e.name}</code>
                </dt>
                <dd>{eventDescription(t, e)}</dd>
              </Fragment>
            ))}
          </dl>
        )}
      </LoadView>
    </section>
  );
};

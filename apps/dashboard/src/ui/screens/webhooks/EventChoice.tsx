import type { Translate } from '../../../i18n.js';
import { eventDescription } from './event-text.js';
import type { EventName, WebhookEventInfo } from './types.js';

/** The events an endpoint subscribes to, as a group of checkboxes. */
export const EventChoice = ({
  idPrefix,
  events,
  chosen,
  onChange,
  t,
}: {
  idPrefix: string;
  events: WebhookEventInfo[];
  chosen: EventName[];
  onChange: (next: EventName[]) => void;
  t: Translate;
}) => (
  <fieldset>
    <legend>{t('webhookEvents')}</legend>
    {events.map((e) => {
      const id = `${idPrefix}-${e.name.replace('.', '-')}`;
      return (
        <div key={e.name} class="check-line">
          <input
            type="checkbox"
            id={id}
            value={e.name}
            checked={chosen.includes(e.name)}
            aria-describedby={`${id}-desc`}
            onChange={(ev) =>
              onChange(
                ev.currentTarget.checked
                  ? events.map((x) => x.name).filter((n) => n === e.name || chosen.includes(n))
                  : chosen.filter((n) => n !== e.name),
              )
            }
          />{' '}
          <label for={id} class="inline">
            <code>{e.name}</code>
          </label>{' '}
          <span id={`${id}-desc`} class="muted small-text">
            {eventDescription(t, e)}
          </span>
        </div>
      );
    })}
  </fieldset>
);

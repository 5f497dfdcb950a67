import { useState } from 'preact/hooks';
import { formatDateTime } from '../../format.js';
import { Alert, LoadView, errorText } from '../common.js';
import { useSubmit } from '../form.js';
import { useDashboard } from '../context.js';
import { CopyButton } from '../OnChain.js';
import { useLoad } from '../use-load.js';
import { ScopeChoice, ScopeSummary, type Access } from './api-keys/scopes.js';
import { EndpointsCard } from './webhooks/EndpointsCard.js';
import { EventLog } from './webhooks/EventLog.js';
import { EventsCard } from './webhooks/EventsCard.js';
import { WidgetCard } from './WidgetCard.js';
import type { ResponseOf } from '../../api/operations.js';

type ApiKey = ResponseOf<'listApiKeys'>[number];

/** The full key of a key just created: shown here once, forgotten when dismissed. */
const NewKey = ({ name, secret, onDismiss }: { name: string; secret: string; onDismiss: () => void }) => {
  const { t } = useDashboard();
  return (
    <div class="new-secret" role="region" aria-labelledby="new-key-title">
      <h3 id="new-key-title">{t('keyCreated', { name })}</h3>
      <p>{t('keyShownOnce')}</p>
      <p class="secret-line">
        <code data-new-key>{secret}</code> <CopyButton value={secret} label={t('apiKey')} />
      </p>
      <button type="button" class="secondary" onClick={onDismiss}>
        {t('keySaved')}
      </button>
    </div>
  );
};

const KeyRow = ({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) => {
  const { session, t, lang } = useDashboard();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <li data-key-id={apiKey.id}>
      <div class="key-line">
        <strong>{apiKey.name}</strong> <code>{`••••${apiKey.last4}`}</code>{' '}
        <span class="muted">{t('createdOn', { date: formatDateTime(apiKey.created_at, lang) })}</span>
        <ScopeSummary scopes={apiKey.scopes} />
      </div>
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('confirmRevokeLabel', { name: apiKey.name })}>
          <p>{t('confirmRevoke', { name: apiKey.name })}</p>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              try {
                await session.call('deleteApiKey', { params: { id: apiKey.id } });
                onRevoked();
              } catch (err) {
                setError(errorText(t, err));
              }
            }}
          >
            {t('revokeKey')}
          </button>{' '}
          {/* Focus lands on the safe choice, so a stray Enter keeps the key. */}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepKey')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          class="secondary small"
          aria-label={t('revokeNamed', { name: apiKey.name })}
          onClick={() => setConfirming(true)}
        >
          {t('revoke')}
        </button>
      )}
      {error && <Alert>{error}</Alert>}
    </li>
  );
};

/** A new key's name and what it may do; the created key goes to `onCreated`, shown once. */
const NewKeyForm = ({ onCreated }: { onCreated: (key: { name: string; key: string }) => void }) => {
  const { session, t } = useDashboard();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>({ kind: 'standard' });
  const { busy, error, setError, onSubmit } = useSubmit();
  const check = () => {
    if (!name.trim() || name.trim().length > 50) return t('keyNameInvalid');
    if (access.kind === 'restricted' && access.scopes.length === 0) return t('keyScopesRequired');
    return undefined;
  };
  const create = async () => {
    // The standard choice sends no scopes: the API's default set is the one source of it.
    const key = await session.call('createApiKey', {
      body: { name: name.trim(), ...(access.kind === 'restricted' ? { scopes: access.scopes } : {}) },
    });
    setName('');
    setAccess({ kind: 'standard' });
    onCreated({ name: key.name, key: key.key });
  };
  return (
    <form class="form inline-form" onSubmit={onSubmit(create, check)} noValidate>
      <label for="key-name">{t('keyName')}</label>
      <div class="row">
        <input
          id="key-name"
          maxLength={50}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-describedby="key-name-hint"
        />
      </div>
      <p id="key-name-hint" class="hint">
        {t('keyNameHint')}
      </p>
      <ScopeChoice
        access={access}
        onChange={(next) => {
          setAccess(next);
          setError(undefined);
        }}
      />
      {error && <Alert>{error}</Alert>}
      <div>
        <button type="submit" disabled={busy}>
          {t('createKey')}
        </button>
      </div>
    </form>
  );
};

/**
 * API keys: create with the standard scopes or only those ticked (the full key shown once, with a
 * copy button), list masked with their scopes, revoke after confirming. Webhook endpoints, each with its own page, and the events they can subscribe to.
 */
export const Developers = () => {
  const { session, t } = useDashboard();
  const [events, reloadEvents] = useLoad(() => session.call('listWebhookEventsDashboard'), []);
  const [keys, reload] = useLoad(() => session.call('listApiKeys'), []);
  const [created, setCreated] = useState<{ name: string; key: string }>();

  return (
    <>
      <h1>{t('developersTitle')}</h1>
      <WidgetCard />
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">{t('apiKeys')}</h2>
        <p class="muted">{t('apiKeysIntro')}</p>
        {created && (
          <NewKey name={created.name} secret={created.key} onDismiss={() => setCreated(undefined)} />
        )}
        <LoadView loaded={keys} t={t} reload={reload}>
          {(list) =>
            list.length === 0 ? (
              <p class="muted">{t('noKeys')}</p>
            ) : (
              <ul class="keys">
                {list.map((k) => (
                  <KeyRow key={k.id} apiKey={k} onRevoked={reload} />
                ))}
              </ul>
            )
          }
        </LoadView>
        <NewKeyForm
          onCreated={(key) => {
            setCreated(key);
            reload();
          }}
        />
      </section>
      <EndpointsCard events={events} />
      <EventLog types={events} />
      <EventsCard events={events} reload={reloadEvents} />
    </>
  );
};

import { useState } from 'preact/hooks';
import { Alert } from '../../common.js';
import { useDashboard } from '../../context.js';
import { useSubmit } from '../../form.js';
import { NewSecret } from './NewSecret.js';
import type { WebhookEndpoint, WebhookTestResult } from './types.js';

/** A sample event sent now, and what the endpoint answered. */
const TestEvent = ({ endpoint, onSent }: { endpoint: WebhookEndpoint; onSent: () => void }) => {
  const { session, t } = useDashboard();
  const [result, setResult] = useState<WebhookTestResult>();
  const test = useSubmit();
  const sendTest = async () => {
    setResult(undefined);
    setResult(await session.call('testWebhookDashboard', { params: { id: endpoint.id } }));
    onSent();
  };
  return (
    <section class="card" aria-labelledby="test-title">
      <h2 id="test-title">{t('testWebhook')}</h2>
      <p class="muted">{t('testWebhookIntro')}</p>
      <button type="button" onClick={() => void test.submit(sendTest)} disabled={test.busy}>
        {test.busy ? t('sendingTest') : t('sendTest')}
      </button>
      {result &&
        (result.success ? (
          <Alert kind="ok">
            {t('testSucceeded', { status: result.status_code ?? '—', ms: result.response_time_ms })}
          </Alert>
        ) : (
          <Alert>
            {t('testFailed', {
              reason: result.error ?? `HTTP ${result.status_code}`,
              ms: result.response_time_ms,
            })}
          </Alert>
        ))}
      {test.error && <Alert>{test.error}</Alert>}
    </section>
  );
};

/** A new signing secret, after confirming: the old one stops working at once. */
const SigningSecret = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const { session, t } = useDashboard();
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string>();
  const replace = useSubmit();
  const regenerate = async () => {
    const made = await session.call('regenerateWebhookSecretDashboard', { params: { id: endpoint.id } });
    setSecret(made.secret);
    setConfirming(false);
  };
  return (
    <section class="card" aria-labelledby="secret-title">
      <h2 id="secret-title">{t('signingSecret')}</h2>
      <p class="muted">{t('signingSecretIntro')}</p>
      {secret && (
        <NewSecret title={t('secretRegenerated')} secret={secret} onDismiss={() => setSecret(undefined)} />
      )}
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('confirmRegenerateLabel')}>
          <p>{t('confirmRegenerate')}</p>
          <button type="button" class="danger" onClick={() => void replace.submit(regenerate)}>
            {t('regenerateSecret')}
          </button>{' '}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepSecret')}
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t('regenerateSecretEllipsis')}
        </button>
      )}
      {replace.error && <Alert>{replace.error}</Alert>}
    </section>
  );
};

/** Sending a test event and replacing the signing secret. */
export const EndpointActions = ({ endpoint, onSent }: { endpoint: WebhookEndpoint; onSent: () => void }) => (
  <>
    <TestEvent endpoint={endpoint} onSent={onSent} />
    <SigningSecret endpoint={endpoint} />
  </>
);

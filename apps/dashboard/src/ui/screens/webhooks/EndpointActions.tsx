import { useState } from 'preact/hooks';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';
import { NewSecret } from './NewSecret.js';
import type { WebhookEndpoint, WebhookTestResult } from './types.js';

/** Sending a test event and replacing the signing secret. */
export const EndpointActions = ({ endpoint, onSent }: { endpoint: WebhookEndpoint; onSent: () => void }) => {
  const { session, t } = useDashboard();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<WebhookTestResult>();
  const [testError, setTestError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [secretError, setSecretError] = useState<string>();

  const sendTest = async () => {
    setTesting(true);
    setResult(undefined);
    setTestError(undefined);
    try {
      setResult(await session.call('testWebhookDashboard', { params: { id: endpoint.id } }));
      onSent();
    } catch (err) {
      setTestError(errorText(t, err));
    } finally {
      setTesting(false);
    }
  };

  const regenerate = async () => {
    setSecretError(undefined);
    try {
      const made = await session.call('regenerateWebhookSecretDashboard', { params: { id: endpoint.id } });
      setSecret(made.secret);
      setConfirming(false);
    } catch (err) {
      setSecretError(errorText(t, err));
    }
  };

  return (
    <>
      <section class="card" aria-labelledby="test-title">
        <h2 id="test-title">{t('testWebhook')}</h2>
        <p class="muted">{t('testWebhookIntro')}</p>
        <button type="button" onClick={() => void sendTest()} disabled={testing}>
          {testing ? t('sendingTest') : t('sendTest')}
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
        {testError && <Alert>{testError}</Alert>}
      </section>
      <section class="card" aria-labelledby="secret-title">
        <h2 id="secret-title">{t('signingSecret')}</h2>
        <p class="muted">{t('signingSecretIntro')}</p>
        {secret && (
          <NewSecret title={t('secretRegenerated')} secret={secret} onDismiss={() => setSecret(undefined)} />
        )}
        {confirming ? (
          <div class="confirm" role="group" aria-label={t('confirmRegenerateLabel')}>
            <p>{t('confirmRegenerate')}</p>
            <button type="button" class="danger" onClick={() => void regenerate()}>
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
        {secretError && <Alert>{secretError}</Alert>}
      </section>
    </>
  );
};

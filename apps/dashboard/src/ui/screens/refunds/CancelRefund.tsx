import { useState } from 'preact/hooks';
import { Alert, errorText } from '../../common.js';
import { useDashboard } from '../../context.js';

/**
 * Cancels a pending refund after an inline confirmation (never the browser's pop-up); focus lands on
 * "keep it", so a stray Enter cancels nothing.
 */
export const CancelRefund = ({ id, onDone }: { id: string; onDone: () => void }) => {
  const { session, t } = useDashboard();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <div class="actions">
      {confirming ? (
        <div class="confirm" role="group" aria-label={t('cancelRefund')}>
          <p>{t('confirmCancelRefund')}</p>
          <button
            type="button"
            class="danger"
            onClick={async () => {
              try {
                await session.call('cancelRefundDashboard', { params: { id } });
                setConfirming(false);
              } catch (err) {
                setError(errorText(t, err));
              }
              onDone();
            }}
          >
            {t('cancelRefund')}
          </button>{' '}
          <button type="button" class="secondary" autoFocus onClick={() => setConfirming(false)}>
            {t('keepRefund')}
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {t('cancelRefundEllipsis')}
        </button>
      )}
      {error && <Alert>{error}</Alert>}
    </div>
  );
};

import { useDashboard } from '../../context.js';
import { CopyButton } from '../../OnChain.js';

/** A signing secret just made: shown here once, forgotten when dismissed. */
export const NewSecret = ({
  title,
  secret,
  onDismiss,
}: {
  title: string;
  secret: string;
  onDismiss: () => void;
}) => {
  const { t } = useDashboard();
  return (
    <div class="new-secret" role="region" aria-labelledby="new-secret-title">
      <h3 id="new-secret-title">{title}</h3>
      <p>{t('secretShownOnce')}</p>
      <p class="secret-line">
        <code data-new-secret>{secret}</code> <CopyButton value={secret} label={t('signingSecret')} />
      </p>
      <button type="button" class="secondary" onClick={onDismiss}>
        {t('keySaved')}
      </button>
    </div>
  );
};

import { saveFile } from '../../../csv.js';
import { useDashboard } from '../../context.js';
import { CopyButton } from '../../OnChain.js';

/** Recovery codes just made: shown once, to copy or save as a text file, forgotten when dismissed. */
export const RecoveryCodes = ({ codes, onDismiss }: { codes: string[]; onDismiss: () => void }) => {
  const { t, account } = useDashboard();
  const text = codes.join('\n');
  return (
    <div class="new-secret" role="region" aria-labelledby="recovery-title">
      <h3 id="recovery-title">{t('recoveryCodesTitle')}</h3>
      <p>{t('recoveryCodesIntro')}</p>
      <ol class="recovery-codes" data-recovery-codes>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div class="actions">
        <CopyButton value={text} label={t('recoveryCodesTitle')} />
        <button
          type="button"
          class="secondary small"
          onClick={() =>
            saveFile(
              `stablepay-recovery-codes-${account.user.email}.txt`,
              'text/plain;charset=utf-8',
              `${text}\n`,
            )
          }
        >
          {t('downloadCodes')}
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          {t('codesStored')}
        </button>
      </div>
    </div>
  );
};

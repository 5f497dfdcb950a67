import type { ComponentChildren } from 'preact';
import { useDashboard } from './context.js';

/**
 * The last look before money leaves the wallet: what goes where, then an explicit confirmation.
 * Focus lands on "Back", so a stray Enter sends nothing.
 */
export const ConfirmMoney = ({
  title,
  rows,
  confirmLabel,
  busy,
  onConfirm,
  onBack,
}: {
  title: string;
  rows: ReadonlyArray<readonly [string, ComponentChildren]>;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) => {
  const { t } = useDashboard();
  return (
    <div class="confirm-money" role="group" aria-label={title} data-confirm-money>
      <p class="confirm-title">{title}</p>
      <dl>
        {rows.map(([name, value]) => (
          <div key={name} class="confirm-row">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div class="actions">
        <button type="button" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>{' '}
        <button type="button" class="secondary" autoFocus disabled={busy} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </div>
  );
};

import type { PaymentTarget } from '../../pay/types.js';
import type { Translate } from '../../i18n.js';
import { QrPanel } from '../QrPanel.js';

/**
 * Paying from any wallet by scanning a code: the code appears once the customer asks for it (the
 * page then watches the chain for the transfer).
 */
export const QrSection = ({
  open,
  onToggle,
  amount,
  target,
  running,
  t,
  onShow,
}: {
  open: boolean;
  onToggle(open: boolean): void;
  /** What the code asks for; undefined until the customer chose this way. */
  amount: bigint | undefined;
  target: PaymentTarget;
  running: boolean;
  t: Translate;
  onShow(): void;
}) => (
  <details class="qr-section" open={open} onToggle={(e) => onToggle((e.target as HTMLDetailsElement).open)}>
    <summary>{t('payWithQr')}</summary>
    {amount !== undefined ? (
      <>
        <QrPanel
          chain={target.merchantChain}
          currency={target.currency}
          address={target.walletAddress}
          amount={amount}
          t={t}
        />
        {running && (
          <p class="hint" role="status">
            {t('qrWaiting')}
          </p>
        )}
      </>
    ) : (
      <button type="button" class="button" onClick={onShow} disabled={running} data-show-qr>
        {t('qrShow')}
      </button>
    )}
  </details>
);

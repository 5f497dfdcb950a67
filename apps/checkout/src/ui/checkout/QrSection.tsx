import { useEffect, useState } from 'preact/hooks';
import type { PaymentTarget } from '../../pay/types.js';
import type { Translate } from '../../i18n.js';
import type { QrPanel as Panel } from '../QrPanel.js';

/**
 * Paying from any wallet by scanning a code: the code appears once the customer asks for it (the
 * page then watches the chain for the transfer), and its code loads only then.
 */
export const QrSection = ({
  open,
  onToggle,
  amount,
  tag,
  target,
  running,
  t,
  onShow,
}: {
  open: boolean;
  onToggle(open: boolean): void;
  /** What the code asks for; undefined until the customer chose this way. */
  amount: bigint | undefined;
  /** the session's QR tag inside `amount` */
  tag?: bigint;
  target: PaymentTarget;
  running: boolean;
  t: Translate;
  onShow(): void;
}) => {
  const [QrPanel, setQrPanel] = useState<typeof Panel>();
  useEffect(() => {
    if (amount !== undefined && !QrPanel)
      void import('../QrPanel.js').then((m) => setQrPanel(() => m.QrPanel));
  }, [amount]);
  return (
    <details class="qr-section" open={open} onToggle={(e) => onToggle((e.target as HTMLDetailsElement).open)}>
      <summary>{t('payWithQr')}</summary>
      {amount !== undefined ? (
        <>
          {QrPanel ? (
            <QrPanel
              chain={target.merchantChain}
              currency={target.currency}
              address={target.walletAddress}
              amount={amount}
              tag={tag}
              t={t}
            />
          ) : (
            <p class="hint" role="status">
              {t('loading')}
            </p>
          )}
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
};

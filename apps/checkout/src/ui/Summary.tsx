import { useEffect, useState } from 'preact/hooks';
import type { Translate } from '../i18n.js';
import { formatAmount } from '../money.js';

const clock = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

/** Seconds left until `expiresAt`, ticking; calls onExpired once when it reaches zero. */
export const useTimeLeft = (expiresAt: string | undefined, onExpired: () => void): number | undefined => {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  const left = expiresAt ? new Date(expiresAt).getTime() - now : undefined;
  const over = left !== undefined && left <= 0;
  useEffect(() => {
    if (over) onExpired();
  }, [over]);
  return left;
};

export interface SummaryProps {
  merchant: string;
  /** the merchant's logo, served by the gateway */
  logo?: string;
  amount?: bigint;
  currency: string;
  timeLeft?: number;
  locale: string;
  t: Translate;
}

export const Summary = ({ merchant, logo, amount, currency, timeLeft, locale, t }: SummaryProps) => (
  <header class="summary">
    <div class="merchant-head">
      {/* Decorative beside the name the heading already says. */}
      {logo && <img class="merchant-logo" src={logo} alt="" data-merchant-logo />}
      <h1 id="title">{t('payTo', { merchant })}</h1>
    </div>
    {amount !== undefined && (
      <p class="amount" data-amount>
        <span class="value">{formatAmount(amount, locale)}</span> <span class="currency">{currency}</span>
      </p>
    )}
    {timeLeft !== undefined && timeLeft > 0 && (
      <p class="timer" role="timer" aria-label={t('timeLeft')} data-time-left={Math.floor(timeLeft / 1000)}>
        {t('expiresIn', { time: clock(timeLeft) })}
      </p>
    )}
  </header>
);

import type { PublicCheckoutSession } from '@stablepay/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GatewayClient } from '../../api.js';
import type { PaymentOutcome, PaymentTarget } from '../../pay/types.js';
import { useTimeLeft } from '../Summary.js';

const SESSION_POLL_MS = 5000;

/**
 * The checkout session as the service last reported it, polled while open and re-read when its time
 * runs out, so a payment made from another browser or a top-up shows here too.
 */
export const useSession = (api: GatewayClient, target: PaymentTarget, initial?: PublicCheckoutSession) => {
  const [session, setSession] = useState(initial);
  const status = session?.status ?? 'open';
  const refreshSession = async () => {
    if (!target.sessionId) return;
    try {
      setSession(await api.session(target.sessionId));
    } catch {
      // The next poll tries again; the page keeps what it showed.
    }
  };
  const timeLeft = useTimeLeft(
    status === 'open' ? session?.expires_at : undefined,
    () => void refreshSession(),
  );
  useEffect(() => {
    if (!target.sessionId || status !== 'open') return;
    const timer = setInterval(() => void refreshSession(), SESSION_POLL_MS);
    return () => clearInterval(timer);
  }, [target.sessionId, status]);
  // A payment that arrived short: the session waits for the rest (the top-up view).
  const awaiting = session?.payment?.amount_due ? session.payment : undefined;
  return { session, status, refreshSession, timeLeft, awaiting };
};

/**
 * A customer who was asked for a top-up returns to the shop once the session completes, as after
 * any payment made on this page (whichever browser sent the rest).
 */
export const useTopUpReturn = (
  { session, status, awaiting }: ReturnType<typeof useSession>,
  outcome: PaymentOutcome | undefined,
  finish: (outcome: PaymentOutcome) => void,
) => {
  const toppingUp = useRef(false);
  useEffect(() => {
    if (awaiting) toppingUp.current = true;
  }, [!!awaiting]);
  useEffect(() => {
    const payment = session?.payment;
    if (status !== 'complete' || !toppingUp.current || outcome || !payment) return;
    finish({ paymentId: payment.id, txHash: payment.tx_hash, status: 'completed' });
  }, [status]);
};

import type { GaslessQuote } from '@stablepay/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GatewayClient } from '../../api.js';
import { toDecimal } from '../../money.js';
import { payError, type PayError } from '../../pay/errors.js';
import { quoteUsable } from '../../pay/gasless.js';
import type { PaymentTarget, PayOption } from '../../pay/types.js';

export interface QuoteState {
  quote?: GaslessQuote;
  error?: PayError;
  loading: boolean;
}

export type GaslessQuoteState = QuoteState & { refresh(): void };

/**
 * The gasless quote for the chosen way to pay, fetched as soon as the customer would sign (so every
 * fee shows before the signature) and fetched again shortly before it ends, except while a payment
 * under way holds the one the customer agreed to.
 */
export const useGaslessQuote = (p: {
  api: GatewayClient;
  target: PaymentTarget;
  option: PayOption | undefined;
  amount: bigint | undefined;
  enabled: boolean;
  running: boolean;
}): GaslessQuoteState => {
  const { api, target, option, amount } = p;
  const [state, setState] = useState<QuoteState>({ loading: false });
  const [round, setRound] = useState(0);
  const key =
    p.enabled && option && amount !== undefined
      ? `${option.chain.chainId}:${option.token}:${option.crossChain}:${amount}`
      : undefined;

  const shownKey = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!key || !option || amount === undefined) {
      shownKey.current = undefined;
      setState({ loading: false });
      return;
    }
    let current = true;
    // The same way to pay again (its quote grew old): its lines stay until the new ones arrive.
    const same = shownKey.current === key;
    shownKey.current = key;
    setState((s) => (same ? { ...s, loading: true } : { loading: true }));
    const ask = () =>
      api
        .gaslessQuote({
          merchantId: target.merchantId,
          chainId: option.chain.chainId,
          token: option.token,
          // The amount is the session's own, the one its customer entered, or (no session) the
          // widget's: without a session the quote opens a payment intent for it.
          ...(target.sessionId ? { sessionId: target.sessionId } : {}),
          amount: toDecimal(amount),
          ...(option.crossChain ? { destinationChainId: target.merchantChain.chainId } : {}),
        })
        .then(
          (quote) => current && setState({ quote, loading: false }),
          (err: unknown) => current && setState({ error: payError(err), loading: false }),
        );
    // A new amount is asked for once the customer stops typing, not at every key.
    const timer = setTimeout(() => void ask(), same ? 0 : 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, round]);

  useEffect(() => {
    const { quote } = state;
    if (!quote || p.running) return;
    if (!quoteUsable(quote)) {
      setRound((n) => n + 1);
      return;
    }
    const untilStale = new Date(quote.expiresAt).getTime() - Date.now() - 20_000;
    const timer = setTimeout(() => setRound((n) => n + 1), Math.max(1000, untilStale));
    return () => clearTimeout(timer);
  }, [state.quote, p.running]);

  return { ...state, refresh: () => setRound((n) => n + 1) };
};

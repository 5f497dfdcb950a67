import type { GaslessQuote } from '@stablepay/contracts';
import { useEffect, useState } from 'preact/hooks';
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

  useEffect(() => {
    if (!key || !option || amount === undefined) {
      setState({ loading: false });
      return;
    }
    let current = true;
    setState({ loading: true });
    api
      .gaslessQuote({
        merchantId: target.merchantId,
        chainId: option.chain.chainId,
        token: option.token,
        // A session fixes the amount; without one the quote opens a payment intent for it.
        ...(target.sessionId ? { sessionId: target.sessionId } : { amount: toDecimal(amount) }),
        ...(option.crossChain ? { destinationChainId: target.merchantChain.chainId } : {}),
      })
      .then(
        (quote) => current && setState({ quote, loading: false }),
        (err: unknown) => current && setState({ error: payError(err), loading: false }),
      );
    return () => {
      current = false;
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

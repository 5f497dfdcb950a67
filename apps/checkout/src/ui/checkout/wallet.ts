import type { PublicChains } from '@stablepay/contracts';
import { useState } from 'preact/hooks';
import { requestAccount, type Eip1193Provider } from '../../eth/wallet.js';
import { payError, type PayError } from '../../pay/errors.js';
import type { PaymentTarget, PayOption } from '../../pay/types.js';
import { readOptions } from '../options.js';

/**
 * The connected account and the ways it can pay, read once it connects; the first way that covers
 * the amount is chosen for the customer.
 */
export const useWalletOptions = (
  provider: Eip1193Provider | undefined,
  chains: PublicChains,
  target: PaymentTarget,
  setError: (error: PayError | undefined) => void,
) => {
  const [account, setAccount] = useState<string>();
  const [connecting, setConnecting] = useState(false);
  const [options, setOptions] = useState<PayOption[]>();
  const [choice, setChoice] = useState(0);

  const connect = async (amount: bigint | undefined) => {
    if (!provider) return;
    setConnecting(true);
    setError(undefined);
    try {
      const acct = await requestAccount(provider);
      setAccount(acct);
      const found = await readOptions(chains, target, acct);
      setOptions(found);
      setChoice(
        Math.max(
          0,
          found.findIndex((o) => amount === undefined || o.balance >= amount),
        ),
      );
    } catch (err) {
      setError(payError(err));
    } finally {
      setConnecting(false);
    }
  };

  return { account, setAccount, connecting, options, choice, setChoice, option: options?.[choice], connect };
};

export type WalletOptions = ReturnType<typeof useWalletOptions>;

import type { PublicChains } from '@stablepay/contracts';
import { useState } from 'preact/hooks';
import { requestAccount, type Eip1193Provider } from '../../eth/wallet.js';
import { payError, type PayError } from '../../pay/errors.js';
import { defaultFunding, readTransferGas, type Funding } from '../../pay/gas.js';
import type { PaymentTarget, PayOption } from '../../pay/types.js';
import { readOptions } from '../options.js';

/**
 * The most Circle takes for bridging `amount` from the option's chain, from the attestation API (the
 * cross-chain code loads only for a customer who has a way to pay from another chain).
 */
const bridgeFee = async (
  o: PayOption,
  chains: PublicChains,
  target: PaymentTarget,
  amount: bigint,
): Promise<bigint | undefined> => {
  if (!o.crossChain || !chains.attestationUrl) return undefined;
  const { burnFeeFor } = await import('../../pay/circle-api.js');
  return burnFeeFor(chains.attestationUrl, o.chain.cctpDomain, target.merchantChain.cctpDomain, amount);
};

/**
 * Each way to pay with what its transfer path would cost: the native gas, read from the chains, and
 * cross-chain Circle's fee, so that the customer sees both before choosing.
 */
const withCosts = (
  options: PayOption[],
  chains: PublicChains,
  target: PaymentTarget,
  account: string,
  amount: bigint | undefined,
): Promise<PayOption[]> =>
  Promise.all(
    options.map(async (o) => ({
      ...o,
      bridgeFee: await bridgeFee(o, chains, target, amount ?? o.balance),
      gas: await readTransferGas({
        chain: o.chain,
        token: o.chain.tokens[o.token]!,
        crossChain: o.crossChain,
        account,
        recipient: target.walletAddress,
        merchantChain: target.merchantChain,
        amount: amount ?? o.balance,
      }),
    })),
  );

/**
 * The connected account and the ways it can pay, read once it connects; the first way that covers
 * the amount is chosen for the customer, and with it how to fund it: the signature for a wallet
 * short of gas on that way's chains, the customer's own transfer otherwise, unless they choose.
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
  const [choice, setChoiceIndex] = useState(0);
  /** The customer's own choice of funding for the chosen way; undefined: the default. */
  const [chosenFunding, setChosenFunding] = useState<Funding>();
  const option = options?.[choice];

  const connect = async (amount: bigint | undefined) => {
    if (!provider) return;
    setConnecting(true);
    setError(undefined);
    try {
      const acct = await requestAccount(provider);
      setAccount(acct);
      const found = await withCosts(await readOptions(chains, target, acct), chains, target, acct, amount);
      setOptions(found);
      setChoiceIndex(
        Math.max(
          0,
          found.findIndex((o) => amount === undefined || o.balance >= amount),
        ),
      );
      setChosenFunding(undefined);
    } catch (err) {
      setError(payError(err));
    } finally {
      setConnecting(false);
    }
  };

  const setChoice = (index: number) => {
    setChoiceIndex(index);
    setChosenFunding(undefined);
  };

  return {
    account,
    setAccount,
    connecting,
    options,
    choice,
    setChoice,
    option,
    funding: chosenFunding ?? defaultFunding(option?.gas, option?.balance ?? 0n),
    setFunding: setChosenFunding,
    connect,
  };
};

export type WalletOptions = ReturnType<typeof useWalletOptions>;

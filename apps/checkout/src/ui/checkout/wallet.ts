import type { PublicChains } from '@stablepay/contracts';
import { useState } from 'preact/hooks';
import { requestAccount, type Eip1193Provider } from '../../eth/wallet.js';
import { payError, type PayError } from '../../pay/errors.js';
import { defaultFunding, readTransferGas, type Funding } from '../../pay/gas.js';
import type { PaymentTarget, PayOption } from '../../pay/types.js';
import { readOptions } from '../options.js';

/** What the ways to pay are priced for: the payment, the connected account and the amount typed. */
interface Pricing {
  chains: PublicChains;
  target: PaymentTarget;
  account: string;
  /** undefined until the customer types one: each way is then priced for its whole balance */
  amount: bigint | undefined;
}

/**
 * The most Circle takes for bridging `amount` from the option's chain, from the attestation API (the
 * cross-chain code loads only for a customer who has a way to pay from another chain).
 */
const bridgeFee = async (o: PayOption, p: Pricing, amount: bigint): Promise<bigint | undefined> => {
  if (!o.crossChain || !p.chains.attestationUrl) return undefined;
  const { burnFeeFor } = await import('../../pay/circle-api.js');
  return burnFeeFor(p.chains.attestationUrl, o.chain.cctpDomain, p.target.merchantChain.cctpDomain, amount);
};

/**
 * Each way to pay with what its transfer path would cost: the native gas, read from the chains, and
 * cross-chain Circle's fee, so that the customer sees both before choosing.
 */
const withCosts = (options: PayOption[], p: Pricing): Promise<PayOption[]> =>
  Promise.all(
    options.map(async (o) => {
      const amount = p.amount ?? o.balance;
      return {
        ...o,
        bridgeFee: await bridgeFee(o, p, amount),
        gas: await readTransferGas({
          chain: o.chain,
          token: o.chain.tokens[o.token]!,
          crossChain: o.crossChain,
          account: p.account,
          recipient: p.target.walletAddress,
          merchantChain: p.target.merchantChain,
          amount,
        }),
      };
    }),
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
      const ways = await readOptions(chains, target, acct);
      const found = await withCosts(ways, { chains, target, account: acct, amount });
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

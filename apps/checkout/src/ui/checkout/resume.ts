import type { PublicChains } from '@stablepay/contracts';
import { useEffect } from 'preact/hooks';
import { currentAccount, type Eip1193Provider } from '../../eth/wallet.js';
import { toDecimal } from '../../money.js';
import { loadPending } from '../../pay/pending.js';
import type { PayOption, PendingPayment } from '../../pay/types.js';
import type { CustomerForm } from './form.js';
import type { Payment } from './payment.js';
import type { WalletOptions } from './wallet.js';

export interface ResumeDeps {
  key: string;
  status: string;
  provider: Eip1193Provider | undefined;
  chains: PublicChains;
  form: CustomerForm;
  payment: Payment;
  wallet: WalletOptions;
  setQrOpen(open: boolean): void;
  setQrAmount(amount: bigint): void;
  setResuming(resuming: boolean): void;
}

/** The way a stored payment was paying; its balance no longer matters, the payment is under way. */
const optionFor = (chains: PublicChains, pending: PendingPayment): PayOption | undefined => {
  const chain = chains.chains.find((c) => c.chainId === pending.sourceChainId);
  const crossChain = pending.kind === 'cross-chain' || (pending.quote?.destinationChainId ?? null) !== null;
  return chain && { chain, token: pending.token, crossChain, balance: 0n };
};

/**
 * A reload in the middle of a payment: pick it up where the chain says it is. A wallet payment only
 * when the wallet still shares the account that paid; a QR payment in any case.
 */
export const useResume = (d: ResumeDeps) => {
  useEffect(() => {
    const pending = loadPending(d.key);
    if (!pending || d.status === 'expired') return;
    if (pending.email) d.form.setEmail(pending.email);
    if (d.form.fixedAmount === undefined) d.form.setAmountText(toDecimal(BigInt(pending.amount)));
    if (pending.kind === 'qr') {
      d.setQrOpen(true);
      d.setQrAmount(BigInt(pending.transferAmount ?? pending.amount));
      void d.payment.run(pending);
      return;
    }
    const provider = d.provider;
    if (!provider) return;
    void (async () => {
      const shared = await currentAccount(provider);
      if (shared !== pending.account) return;
      d.wallet.setAccount(shared);
      d.setResuming(true);
      await d.payment.run(pending, optionFor(d.chains, pending));
      d.setResuming(false);
    })();
  }, []);
};

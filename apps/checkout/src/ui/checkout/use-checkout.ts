import { useEffect, useMemo, useState } from 'preact/hooks';
import { pickLanguage } from '@stablepay/contracts/shared/languages';
import { chainLabel } from '../../chains.js';
import { blockNumber } from '../../eth/rpc.js';
import { injectedProvider } from '../../eth/wallet.js';
import { formatAmount, toDecimal } from '../../money.js';
import { PayError } from '../../pay/errors.js';
import { quoteUsable } from '../../pay/gasless.js';
import { pendingKey } from '../../pay/pending.js';
import { qrTagUnits } from '../../pay/qr-tag.js';
import type { CheckoutProps } from '../Checkout.js';
import { useCustomerForm } from './form.js';
import { useGaslessQuote } from './gasless-quote.js';
import { usePayment } from './payment.js';
import { useResume } from './resume.js';
import { useSession, useTopUpReturn } from './session.js';
import { useWalletOptions } from './wallet.js';

/**
 * Everything the checkout page knows and can do: the session, the customer's entries, the wallet's
 * ways to pay, the payment under way (resumed after a reload), and the QR code path.
 */
export const useCheckout = (props: CheckoutProps) => {
  const { api, chains, target } = props;
  const provider = useMemo(injectedProvider, []);
  const form = useCustomerForm(props.fixedAmount, props.email);
  const sessionState = useSession(api, target, props.session);
  const { status, refreshSession } = sessionState;
  const payment = usePayment({
    api,
    chains,
    provider,
    target,
    language: pickLanguage(props.locale, []),
    refreshSession,
    onFinished: props.onFinished,
  });
  useTopUpReturn(sessionState, payment.outcome, payment.finish);
  const wallet = useWalletOptions(provider, chains, target, payment.setError);
  const gasless = useGaslessQuote({
    api,
    target,
    option: wallet.option,
    amount: form.amountValid ? form.amount : undefined,
    enabled: wallet.funding === 'authorization',
    running: payment.running,
  });
  // The gateway found the quote too old to sign: the customer gets a new one, and sees its fees.
  useEffect(() => {
    if (payment.error?.problem === 'quote_expired') gasless.refresh();
  }, [payment.error]);
  const [qrOpen, setQrOpen] = useState(!provider);
  const [resuming, setResuming] = useState(false);
  /** The amount the QR code asks for, once the customer chose to pay that way. */
  const [qrAmount, setQrAmount] = useState<bigint>();
  const key = pendingKey(target, props.fixedAmount === undefined ? undefined : toDecimal(props.fixedAmount));
  const { amount } = form;
  const valid = form.amountValid && form.emailValid;

  useResume({ key, status, provider, chains, form, payment, wallet, setQrOpen, setQrAmount, setResuming });

  const started = (fromBlock: bigint) => ({
    key,
    amount: amount!.toString(),
    email: form.email.trim(),
    fromBlock: fromBlock.toString(),
    startedAt: Date.now(),
  });

  const pay = async () => {
    form.touch();
    const { option, account } = wallet;
    if (!option || !account || !valid) return;
    if (option.balance < amount!) {
      const balance = formatAmount(option.balance, props.locale);
      payment.setError(
        new PayError('balance', 'Not enough balance', { balance, chain: chainLabel(option.chain) }),
      );
      return;
    }
    const { quote } = gasless;
    const signing = wallet.funding === 'authorization';
    // The customer signs only fees they saw: a quote about to end is replaced (and shown) first.
    if (signing && (!quote || !quoteUsable(quote))) return;
    const fromBlock = await blockNumber(option.chain.rpcUrls).catch(() => 0n);
    const kind = signing ? 'gasless' : option.crossChain ? 'cross-chain' : 'same-chain';
    const from = { account, sourceChainId: option.chain.chainId, token: option.token };
    await payment.run({ ...started(fromBlock), kind, ...from, ...(signing ? { quote } : {}) }, option);
  };

  const watchQr = async () => {
    form.touch();
    if (!valid || payment.running) return;
    const fromBlock = await blockNumber(target.merchantChain.rpcUrls).catch(() => 0n);
    // A session's transfer carries its tag: how the service knows it is this customer's.
    const transfer = target.sessionId ? amount! + (await qrTagUnits(target.sessionId)) : amount!;
    setQrAmount(transfer);
    const to = { account: '', sourceChainId: target.merchantChain.chainId, token: target.currency };
    await payment.run({ ...started(fromBlock), kind: 'qr', ...to, transferAmount: transfer.toString() });
  };

  return {
    provider,
    form,
    ...sessionState,
    payment,
    wallet,
    gasless,
    resuming,
    qr: {
      open: qrOpen,
      setOpen: setQrOpen,
      amount: qrAmount,
      // What a session's code adds to the amount, so that the page can say why it is there.
      tag: qrAmount !== undefined && target.sessionId && amount !== undefined ? qrAmount - amount : undefined,
    },
    pay,
    watchQr,
  };
};

export type CheckoutState = ReturnType<typeof useCheckout>;

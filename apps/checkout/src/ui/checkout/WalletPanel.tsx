import type { Translate } from '../../i18n.js';
import { formatAmount } from '../../money.js';
import type { PayOption } from '../../pay/types.js';
import type { WalletOptions } from './wallet.js';

interface PanelProps {
  wallet: WalletOptions;
  /** What the customer pays, once entered. */
  amount: bigint | undefined;
  amountValid: boolean;
  currency: string;
  merchantChain: string;
  running: boolean;
  resuming: boolean;
  locale: string;
  t: Translate;
  onConnect(): void;
  onPay(): void;
}

const covers = (option: PayOption, amount: bigint | undefined) =>
  amount === undefined || option.balance >= amount;

/** Each way the wallet can pay, with its balance; one short of the amount is marked. */
const PayOptions = ({
  wallet,
  amount,
  merchantChain,
  running,
  locale,
  t,
}: Pick<PanelProps, 'wallet' | 'amount' | 'merchantChain' | 'running' | 'locale' | 't'>) => (
  <fieldset class="options" disabled={running}>
    <legend>{t('chooseWay')}</legend>
    {wallet.options!.map((o, i) => {
      const enough = covers(o, amount);
      const id = `option-${i}`;
      return (
        <div class={`option${enough ? '' : ' short'}`} key={id}>
          <input
            type="radio"
            id={id}
            name="option"
            checked={wallet.choice === i}
            data-chain={o.chain.name}
            data-cross-chain={o.crossChain}
            onChange={() => wallet.setChoice(i)}
          />
          <label for={id}>
            <span class="option-name">
              {t(o.crossChain ? 'crossChain' : 'sameChain', {
                token: o.token,
                chain: o.chain.name,
                dest: merchantChain,
              })}
            </span>
            <span class="option-balance">
              {t('balance', { amount: formatAmount(o.balance, locale), token: o.token })}
              {!enough && ` · ${t('notEnough', { token: o.token })}`}
            </span>
          </label>
        </div>
      );
    })}
  </fieldset>
);

/** Paying from the injected wallet: connect, choose a way, pay. */
export const WalletPanel = (props: PanelProps) => {
  const { wallet, amount, running, t } = props;
  const { account, options } = wallet;
  return (
    <div class="wallet">
      {!account ? (
        <button
          type="button"
          class="button primary"
          onClick={props.onConnect}
          disabled={wallet.connecting || running}
        >
          {wallet.connecting ? t('connecting') : t('connect')}
        </button>
      ) : (
        <p class="hint" data-account={account}>
          {t('connected', { account: `${account.slice(0, 6)}…${account.slice(-4)}` })}
        </p>
      )}
      {props.resuming && <p class="hint">{t('resume')}</p>}
      {options && options.length > 0 && <PayOptions {...props} />}
      {options && !options.some((o) => covers(o, amount)) && (
        <p class="notice warning">{t('noWay', { token: props.currency })}</p>
      )}
      {account && wallet.option && (
        <button type="button" class="button primary" onClick={props.onPay} disabled={running} data-pay>
          {t('pay', {
            amount: props.amountValid ? formatAmount(amount!, props.locale) : '',
            token: props.currency,
          })}
        </button>
      )}
    </div>
  );
};

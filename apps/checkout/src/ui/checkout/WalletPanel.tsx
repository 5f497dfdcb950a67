import type { PublicChain } from '@stablepay/contracts';
import { chainLabel } from '../../chains.js';
import type { Translate } from '../../i18n.js';
import { DECIMALS, formatAmount, formatEstimate } from '../../money.js';
import type { PayError } from '../../pay/errors.js';
import type { PayOption } from '../../pay/types.js';
import { FundingChoice, GaslessFees, signedTotal } from './Funding.js';
import type { QuoteState } from './gasless-quote.js';
import type { WalletOptions } from './wallet.js';
import { aboutTime, expectedSeconds, networkFee } from '../expectations.js';

interface PanelProps {
  wallet: WalletOptions;
  /** What the customer pays, once entered. */
  amount: bigint | undefined;
  amountValid: boolean;
  currency: string;
  merchantChain: PublicChain;
  running: boolean;
  resuming: boolean;
  locale: string;
  t: Translate;
  /** the gasless quote of the chosen way, while the customer would pay with a signature */
  gasless: QuoteState;
  problemText(err: PayError): string;
  onConnect(): void;
  onPay(): void;
}

const covers = (option: PayOption, amount: bigint | undefined) =>
  amount === undefined || option.balance >= amount;

/**
 * What one way costs and how long it takes: the transfer path's network fee (and Circle's, bridged),
 * or, for the way chosen with a signature, the fees in the token that the quote below lists.
 */
const OptionCosts = ({
  option,
  signing,
  merchantChain,
  locale,
  t,
}: {
  option: PayOption;
  signing: boolean;
  merchantChain: PublicChain;
  locale: string;
  t: Translate;
}) => {
  const native = networkFee(option, locale);
  const fees = signing
    ? [t('feeBySignature', { token: option.token })]
    : [
        native && t('feeEstimate', { fee: native }),
        option.bridgeFee !== undefined &&
          t('bridgeEstimate', {
            fee: `${formatEstimate(option.bridgeFee, DECIMALS, locale)} ${option.token}`,
          }),
      ].filter(Boolean);
  const time = aboutTime(expectedSeconds(option, merchantChain), t);
  return (
    <span class="option-cost" data-option-cost>
      {[fees.join(', '), time].filter(Boolean).join(' · ')}
    </span>
  );
};

/** Each way the wallet can pay, with its balance, fee and time; one short of the amount is marked. */
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
                chain: chainLabel(o.chain),
                dest: chainLabel(merchantChain),
              })}
            </span>
            <span class="option-balance">
              {t('balance', { amount: formatAmount(o.balance, locale), token: o.token })}
              {!enough && ` · ${t('notEnough', { token: o.token })}`}
            </span>
            <OptionCosts
              option={o}
              signing={wallet.choice === i && wallet.funding === 'authorization'}
              merchantChain={merchantChain}
              locale={locale}
              t={t}
            />
          </label>
        </div>
      );
    })}
  </fieldset>
);

/** The pay button: the amount sent, or the total signed once its fees are known. */
const PayButton = (props: PanelProps) => {
  const { wallet, amount, running, locale, t } = props;
  const signing = wallet.funding === 'authorization';
  const total = signedTotal(props.gasless, locale);
  const vars = {
    amount: props.amountValid ? formatAmount(amount!, locale) : '',
    token: props.currency,
  };
  return (
    <button
      type="button"
      class="button primary"
      onClick={props.onPay}
      disabled={running || (signing && total === undefined)}
      data-pay={signing ? 'authorization' : 'transfer'}
    >
      {signing ? t('paySign', { ...vars, amount: total ?? vars.amount }) : t('pay', vars)}
    </button>
  );
};

/** Paying from the injected wallet: connect, choose a way and how to fund it, see the fees, pay. */
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
        <FundingChoice
          option={wallet.option}
          funding={wallet.funding}
          disabled={running}
          t={t}
          onFunding={wallet.setFunding}
        />
      )}
      {account && wallet.option && wallet.funding === 'authorization' && props.amountValid && (
        <GaslessFees state={props.gasless} locale={props.locale} t={t} problemText={props.problemText} />
      )}
      {account && wallet.option && <PayButton {...props} />}
    </div>
  );
};

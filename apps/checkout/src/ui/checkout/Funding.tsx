import { chainLabel } from '../../chains.js';
import type { Translate } from '../../i18n.js';
import { formatAmount, parseAmount } from '../../money.js';
import type { Funding } from '../../pay/gas.js';
import type { PayOption, QuoteFees } from '../../pay/types.js';
import { nativeSymbol } from '../native.js';
import { ProblemNotice } from '../problems.js';
import type { QuoteState } from './gasless-quote.js';

/** A quote's decimal string as the page shows amounts. */
const shown = (decimal: string, locale: string): string => formatAmount(parseAmount(decimal) ?? 0n, locale);

/** The two ways to fund the chosen way to pay; the signature is preselected for a wallet short of gas. */
export const FundingChoice = ({
  option,
  funding,
  disabled,
  t,
  onFunding,
}: {
  option: PayOption;
  funding: Funding;
  disabled: boolean;
  t: Translate;
  onFunding(funding: Funding): void;
}) => {
  const short = option.gas?.short;
  const vars = { native: nativeSymbol((short?.chain ?? option.chain).name), token: option.token };
  const choices = [
    ['transfer', 'fundingTransfer', 'fundingTransferHint'],
    ['authorization', 'fundingSignature', 'fundingSignatureHint'],
  ] as const;
  return (
    <fieldset class="options funding" disabled={disabled}>
      <legend>{t('fundingLegend')}</legend>
      {short && (
        <p class="hint" id="gas-short" data-gas-short={short.chain.name}>
          {t('gasShort', { ...vars, chain: chainLabel(short.chain) })}
        </p>
      )}
      {choices.map(([value, label, hint]) => (
        <div class="option" key={value}>
          <input
            type="radio"
            id={`funding-${value}`}
            name="funding"
            value={value}
            checked={funding === value}
            data-funding={value}
            onChange={() => onFunding(value)}
          />
          <label for={`funding-${value}`}>
            <span class="option-name">{t(label)}</span>
            <span class="option-balance">{t(hint, vars)}</span>
          </label>
        </div>
      ))}
    </fieldset>
  );
};

/** Every figure of a gasless quote: what the merchant gets, each fee and who bears it, the total signed. */
export const FeeLines = ({
  quote,
  locale,
  t,
  paid = false,
}: {
  quote: QuoteFees;
  locale: string;
  t: Translate;
  /** on the receipt: the total was paid, not to be authorised */
  paid?: boolean;
}) => {
  const money = (decimal: string) => `${shown(decimal, locale)} ${quote.token}`;
  const bearer = quote.feeBearer === 'customer' ? t('feeInTotal') : t('feeByMerchant');
  const crossChain = quote.destinationChainId !== null;
  return (
    <dl class="fees" data-fees data-fee-bearer={quote.feeBearer}>
      <dt>{t('feeAmount')}</dt>
      <dd data-fee="amount">{money(quote.amount)}</dd>
      <dt>{t('feeNetwork')}</dt>
      <dd data-fee="network">{money(quote.networkFee)}</dd>
      {crossChain && (
        <>
          <dt>{t('feeCctp')}</dt>
          <dd data-fee="cctp">{money(quote.cctpFee)}</dd>
        </>
      )}
      <dd class="fee-note">{bearer}</dd>
      <dt class="total">{t(paid ? 'feeTotalPaid' : 'feeTotal')}</dt>
      <dd class="total" data-fee="total">
        {money(quote.total)}
      </dd>
    </dl>
  );
};

/** The fees before the signature: being fetched, the quote's lines, or why a signature cannot pay. */
export const GaslessFees = ({
  state,
  locale,
  t,
  problemText,
}: {
  state: QuoteState;
  locale: string;
  t: Translate;
  problemText(err: NonNullable<QuoteState['error']>): string;
}) => (
  <section class="gasless" aria-labelledby="fees-title" aria-busy={state.loading}>
    <h2 class="subtitle" id="fees-title">
      {t('feesTitle')}
    </h2>
    {state.quote ? (
      <FeeLines quote={state.quote} locale={locale} t={t} />
    ) : state.error ? (
      <ProblemNotice error={state.error} text={problemText(state.error)} />
    ) : (
      <p class="hint" role="status">
        {t('feesLoading')}
      </p>
    )}
  </section>
);

/** The total a signature authorises, for the pay button; undefined until the quote is there. */
export const signedTotal = (state: QuoteState, locale: string): string | undefined =>
  state.quote && shown(state.quote.total, locale);

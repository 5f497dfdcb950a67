import type { Translate } from '../../i18n.js';
import type { CustomerForm } from './form.js';

const inputValue = (e: Event) => (e.target as HTMLInputElement).value;

/** The amount field (when the customer chooses it) and the receipt e-mail. */
export const CustomerFields = ({
  form,
  currency,
  disabled,
  t,
}: {
  form: CustomerForm;
  currency: string;
  disabled: boolean;
  t: Translate;
}) => {
  const showAmountError = form.touched && form.fixedAmount === undefined && !form.amountValid;
  const showEmailError = form.touched && !form.emailValid;
  return (
    <div class="fields">
      {form.fixedAmount === undefined && (
        <div class="field">
          <label for="amount">
            {t('amount')} ({currency})
          </label>
          <input
            id="amount"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={form.amountText}
            disabled={disabled}
            aria-invalid={showAmountError}
            aria-describedby="amount-hint"
            onInput={(e) => form.setAmountText(inputValue(e))}
          />
          <small id="amount-hint" class={showAmountError ? 'error' : 'hint'}>
            {showAmountError ? t('amountInvalid') : t('amountHint')}
          </small>
        </div>
      )}
      <div class="field">
        <label for="email">{t('email')}</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          disabled={disabled}
          aria-invalid={showEmailError}
          aria-describedby={showEmailError ? 'email-error' : undefined}
          onInput={(e) => form.setEmail(inputValue(e))}
        />
        {showEmailError && (
          <small id="email-error" class="error">
            {t('emailInvalid')}
          </small>
        )}
      </div>
    </div>
  );
};

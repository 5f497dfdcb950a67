import type { ComponentChildren } from 'preact';
import type { Translate } from '../../i18n.js';
import type { CustomerForm } from './form.js';

interface FieldProps {
  name: string;
  label: ComponentChildren;
  /** The input's own attributes beyond its value: type, inputMode, autoComplete. */
  input: { type?: string; inputMode?: 'decimal'; autoComplete: string; required?: boolean };
  value: string;
  disabled: boolean;
  invalid: boolean;
  onValue(value: string): void;
  /** The line under the input that describes it: a hint, or the error once there is one. */
  note?: { id: string; text: string; error: boolean };
}

const Field = ({ name, label, input, value, disabled, invalid, onValue, note }: FieldProps) => (
  <div class="field">
    <label for={name}>{label}</label>
    <input
      id={name}
      name={name}
      {...input}
      value={value}
      disabled={disabled}
      aria-invalid={invalid}
      aria-describedby={note?.id}
      onInput={(e) => onValue((e.target as HTMLInputElement).value)}
    />
    {note && (
      <small id={note.id} class={note.error ? 'error' : 'hint'}>
        {note.text}
      </small>
    )}
  </div>
);

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
        <Field
          name="amount"
          label={
            <>
              {t('amount')} ({currency})
            </>
          }
          input={{ inputMode: 'decimal', autoComplete: 'off' }}
          value={form.amountText}
          disabled={disabled}
          invalid={showAmountError}
          onValue={form.setAmountText}
          note={{
            id: 'amount-hint',
            text: showAmountError ? t('amountInvalid') : t('amountHint'),
            error: showAmountError,
          }}
        />
      )}
      {/* Required, and why: the receipt goes there, and a refund is arranged through it. */}
      <Field
        name="email"
        label={
          <>
            {t('email')} <span class="required">({t('emailRequired')})</span>
          </>
        }
        input={{ type: 'email', autoComplete: 'email', required: true }}
        value={form.email}
        disabled={disabled}
        invalid={showEmailError}
        onValue={form.setEmail}
        note={
          showEmailError
            ? { id: 'email-error', text: t('emailInvalid'), error: true }
            : { id: 'email-hint', text: t('emailHint'), error: false }
        }
      />
    </div>
  );
};

import type { Currency } from '@stablepay/contracts';
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Alert, errorText } from './common.js';
import { useDashboard } from './context.js';
import type { Translate } from '../i18n.js';

type InputProps = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onInput' | 'label'>;

/**
 * What is wrong with one field, under it, where the eye already is (not in a banner at the end of
 * the form); announced as it appears. Its id is the field's with `-error`.
 */
export const FieldError = ({ id, error }: { id: string; error: string | undefined }) =>
  error ? (
    <p id={`${id}-error`} class="field-error" role="alert">
      {error}
    </p>
  ) : null;

/** The ids describing a field: its error first (read before the hint), then its hint. */
export const describedBy = (id: string, hint: boolean, error: string | undefined): string | undefined =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

/**
 * A labelled text input; `error` and `hint` go under it and describe it. The label, input and hint
 * are siblings, as the `.form` layout places them.
 */
export const TextField = ({
  id,
  label,
  value,
  onValue,
  hint,
  error,
  ...input
}: InputProps & {
  id: string;
  label: ComponentChildren;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string;
}) => (
  <>
    <label for={id}>{label}</label>
    <input
      id={id}
      value={value}
      aria-describedby={describedBy(id, !!hint, error)}
      aria-invalid={error ? true : undefined}
      onInput={(e) => onValue(e.currentTarget.value)}
      {...input}
    />
    <FieldError id={id} error={error} />
    {hint && (
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    )}
  </>
);

/** A password: the one in use (`current-password`) or a new one, for the browser's password manager. */
export const PasswordField = ({
  purpose,
  ...props
}: Omit<Parameters<typeof TextField>[0], 'type' | 'autocomplete'> & { purpose: 'current' | 'new' }) => (
  <TextField {...props} type="password" autocomplete={`${purpose}-password`} />
);

/** The six digits of an authenticator app. */
export const CodeField = (props: FieldBinding & { label: string }) => (
  <TextField {...props} inputMode="numeric" autocomplete="one-time-code" maxLength={6} />
);

/** What binds a field to one of a form's text values: its id and name, the value and its setter. */
export interface FieldBinding {
  id: string;
  name?: string;
  value: string;
  onValue: (value: string) => void;
}

/**
 * A form's text values and `field`, which binds a field to one of them; its id is `prefix` and the
 * value's name (the name alone without a prefix, where the form is the page's only one). `set`
 * changes some values, `reset` puts the first ones back (after a submission that used them).
 */
export const useFormFields = <V extends Record<string, string>>(prefix: string, initial: V) => {
  const [values, setValues] = useState(initial);
  const set = (next: Partial<V>) => setValues((v) => ({ ...v, ...next }));
  const field = (name: keyof V & string): FieldBinding => ({
    id: prefix ? `${prefix}-${name}` : name,
    name,
    value: values[name],
    onValue: (value) => set({ [name]: value } as Partial<V>),
  });
  return { values, field, set, reset: () => setValues(initial) };
};

/** One choice of a radio group, its words after the button; `describedBy` names a hint below it. */
export const RadioOption = ({
  name,
  checked,
  onChoose,
  describedBy,
  children,
}: {
  name: string;
  checked: boolean;
  onChoose: () => void;
  describedBy?: string;
  children: ComponentChildren;
}) => (
  <label class="inline">
    <input type="radio" name={name} checked={checked} onChange={onChoose} aria-describedby={describedBy} />{' '}
    {children}
  </label>
);

/**
 * A form named by its heading (`aria-labelledby`), so that a screen reader lists it by its title.
 * The heading's id is the form's with `-title`; `level` follows the page's outline (3 inside a card).
 */
export const TitledForm = ({
  id,
  title,
  level = 2,
  class: className,
  onSubmit,
  children,
}: {
  id: string;
  title: ComponentChildren;
  level?: 2 | 3;
  class: string;
  onSubmit: (e: Event) => void;
  children: ComponentChildren;
}) => {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <form class={className} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`}>{title}</Heading>
      {children}
    </form>
  );
};

/** The end of a form: what went wrong, what went right, and the submit button. */
export const FormEnd = ({
  error,
  done,
  busy,
  label,
  buttonClass,
  disabled = busy,
}: {
  error?: string;
  done?: ComponentChildren;
  busy?: boolean;
  label: ComponentChildren;
  buttonClass?: string;
  /** when the button is off: while busy, unless told otherwise */
  disabled?: boolean;
}) => (
  <>
    {error && <Alert>{error}</Alert>}
    {done && <Alert kind="ok">{done}</Alert>}
    <div class="actions">
      <button type="submit" class={buttonClass} disabled={disabled}>
        {label}
      </button>
    </div>
  </>
);

/**
 * A form's submission: `busy` while `action` runs, and the gateway's refusal as `error`. `check`
 * runs first and stops the submission with the message it returns.
 */
export const useSubmit = (describe: (t: Translate, err: unknown) => string = errorText) => {
  const { t } = useDashboard();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (action: () => Promise<void>, check?: () => string | undefined) => {
    const refused = check?.();
    setError(refused);
    if (refused) return;
    setBusy(true);
    try {
      await action();
    } catch (err) {
      setError(describe(t, err));
    } finally {
      setBusy(false);
    }
  };
  /** The form's submit handler; `start` first clears what the last submission said. */
  const onSubmit =
    (action: () => Promise<void>, check?: () => string | undefined, start?: () => void) => (e: Event) => {
      e.preventDefault();
      start?.();
      void submit(action, check);
    };
  return { busy, error, setError, submit, onSubmit };
};

/** The token a form moves money in: one of the merchant's accepted currencies. */
export const CurrencySelect = ({
  id,
  label,
  value,
  currencies,
  onChoose,
  disabled,
}: {
  id: string;
  label: string;
  value: Currency;
  currencies: readonly Currency[];
  onChoose: (currency: Currency) => void;
  disabled?: boolean;
}) => (
  <div class="field">
    <label for={id}>{label}</label>
    <select
      id={id}
      value={value}
      disabled={disabled}
      onChange={(ev) => onChoose(ev.currentTarget.value as Currency)}
    >
      {currencies.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  </div>
);

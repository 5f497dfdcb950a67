import { useState } from 'preact/hooks';
import { MAX_AMOUNT, MIN_AMOUNT, parseAmount } from '../../money.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The amount (unless fixed) and receipt e-mail the customer types, and whether both can be used. */
export const useCustomerForm = (fixedAmount: bigint | undefined, initialEmail: string | undefined) => {
  const [email, setEmail] = useState(initialEmail ?? '');
  const [amountText, setAmountText] = useState('');
  // Errors show only once the customer tried to pay: not while they are still typing.
  const [touched, setTouched] = useState(false);
  const amount = fixedAmount ?? parseAmount(amountText);
  const amountValid = amount !== undefined && amount >= MIN_AMOUNT && amount <= MAX_AMOUNT;
  const emailValid = EMAIL_RE.test(email.trim());
  return {
    fixedAmount,
    email,
    setEmail,
    amountText,
    setAmountText,
    touched,
    touch: () => setTouched(true),
    amount,
    amountValid,
    emailValid,
  };
};

export type CustomerForm = ReturnType<typeof useCustomerForm>;

import type { EmailWords } from './types.js';

export const en: EmailWords = {
  lang: 'en',
  labels: {
    amount: 'Amount',
    paidTo: 'Paid to',
    reference: 'Reference',
    network: 'Network',
    transaction: 'Transaction',
    from: 'From',
    paymentId: 'Payment ID',
    date: 'Date',
    customer: 'Customer',
    sentTo: 'Sent to',
    refundId: 'Refund ID',
    endpoint: 'Endpoint',
    endpointId: 'Endpoint ID',
    lastError: 'Last error',
    disabledAt: 'Disabled at',
    account: 'Account',
    linkValidUntil: 'Link valid until',
    label: 'Label',
    address: 'Address',
    usableFrom: 'Usable from',
    confirmedWith: 'Confirmed with',
    added: 'Added',
    removed: 'Removed',
  },
  orOpen: (url) => `Or open this address: ${url}`,
  receipt: {
    theMerchant: 'the merchant',
    subject: (amount, m) => `Receipt: ${amount} paid to ${m}`,
    heading: 'Payment receipt',
    intro: (amount, m) => `Your payment of ${amount} to ${m} is confirmed.`,
    outro: 'Keep this e-mail as your receipt. Questions about the order go to the merchant.',
  },
  received: {
    subject: (amount) => `Payment received: ${amount}`,
    heading: 'Payment received',
    intro: (m, amount) => `${m}, a payment of ${amount} was confirmed and credited to your wallet.`,
  },
  refund: {
    theMerchant: 'The merchant',
    subject: (amount) => `Refund sent: ${amount}`,
    heading: 'Your refund was sent',
    intro: (m, amount, network) => `${m} refunded ${amount} to your wallet on ${network}.`,
  },
  endpointDisabled: {
    subject: (n) => `Webhook endpoint disabled after ${n} consecutive failures`,
    heading: 'A webhook endpoint was disabled',
    intro: (m, n) =>
      `${m}, the last ${n} deliveries to one of your webhook endpoints failed in a row, so it was disabled and no longer receives events.`,
    outro: [
      'Fix the endpoint, then re-enable it with PUT /merchant-webhooks/api/:id and {"is_active": true}.',
      'Events missed in the meantime can be sent again with POST /merchant-webhooks/api/:id/replay.',
    ],
  },
  confirmation: {
    subject: 'Confirm your e-mail address for StablePay',
    heading: 'Confirm your e-mail address',
    intro: (m) => [
      `Welcome to StablePay. Confirm that this address belongs to ${m} by following the link below.`,
      'Until it is confirmed, your account receives no notices and cannot withdraw.',
    ],
    action: 'Confirm e-mail address',
    outro: [
      'The link works once. If it has expired, sign in to the dashboard and ask for a new one.',
      'If you did not register, ignore this e-mail: no account is used without this confirmation.',
    ],
  },
  registration: {
    subject: 'Someone tried to register with your e-mail address',
    heading: 'A registration with your address',
    intro: (m) => [
      `Someone tried to create a StablePay account with this e-mail address, which already belongs to ${m}. No new account was created.`,
      'If it was you, sign in with your existing account instead. If you no longer know your password, contact your StablePay operator to have it reset.',
    ],
    action: 'Sign in',
    outro:
      'If it was not you, nothing needs doing: your account is unchanged, and the attempt is in its audit log.',
  },
  stepUp: {
    mfa: 'password sign-in and an authenticator code',
    recent_sign_in: 'a recent password sign-in',
  },
  addressAdded: {
    subject: (label) => `New withdrawal address added: ${label}`,
    heading: 'A withdrawal address was added',
    intro: (m, from) =>
      `${m}, an address was added to your withdrawal address book. Withdrawals can go there from ${from}.`,
    outro:
      'If you did not add it, remove it in the dashboard (Withdrawal addresses) before then, change your password and turn on two-factor sign-in.',
  },
  addressRemoved: {
    subject: (label) => `Withdrawal address removed: ${label}`,
    heading: 'A withdrawal address was removed',
    intro: (m) =>
      `${m}, an address was removed from your withdrawal address book. No withdrawal goes there any more.`,
    outro: 'If you did not remove it, change your password and review the audit log in the dashboard.',
  },
};

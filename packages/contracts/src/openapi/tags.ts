/** What each tag of the document groups, shown as the section's introduction by viewers. */
export const tagDescriptions: Record<string, string> = {
  Auth: 'Dashboard accounts: registration, e-mail confirmation, sign-in, tokens, two-factor sign-in and passwords.',
  'API keys': 'Keys for server-to-server calls, each holding scopes; managed with a dashboard session only.',
  Merchants: "A merchant's public profile and receiving wallet, as the payment widget shows them.",
  Chains: 'The chains and tokens this deployment accepts payments on.',
  Audit: 'Who did what in the account: sign-ins, key and webhook changes, withdrawals.',
  Payments: 'Payments recorded from on-chain transactions, and their verification status.',
  Checkout: 'Hosted checkout sessions: a payment page for one amount, with return and cancel URLs.',
  'Balance transactions':
    'Every movement of the balance (payments, refunds, withdrawals, fees), as JSON or CSV.',
  Invoices: 'Monthly invoices of the platform fees, as PDF, and the billing profile they are issued to.',
  Withdrawals: 'Moving the balance to an address of the withdrawal address book.',
  Wallets: 'Balance of the merchant wallet, per chain and currency, and its reconciliation with the ledger.',
  Refunds: 'Full or partial refunds of completed payments, sent on-chain to the payer.',
  Webhooks:
    'Endpoints that receive signed events, their delivery logs, redelivery and replay, and the event log.',
};

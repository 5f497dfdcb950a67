import { apiKeysExamples } from './api-keys.js';
import { auditExamples } from './audit.js';
import { authExamples } from './auth.js';
import { balanceTransactionsExamples } from './balance-transactions.js';
import { chainsExamples } from './chains.js';
import { checkoutExamples } from './checkout.js';
import { gaslessExamples } from './gasless.js';
import { invoicesExamples } from './invoices.js';
import { merchantsExamples } from './merchants.js';
import { paymentsExamples } from './payments.js';
import { refundsExamples } from './refunds.js';
import { walletsExamples } from './wallets.js';
import { webhooksExamples } from './webhooks.js';
import { withdrawalsExamples } from './withdrawals.js';
import type { ExampleTable, OperationExample } from './example.js';

export type { ExampleTable, OperationExample } from './example.js';

/** Every operation's example, by operation id (a dashboard twin shows its original's). */
export const operationExamples: ExampleTable = {
  ...authExamples,
  ...apiKeysExamples,
  ...merchantsExamples,
  ...chainsExamples,
  ...auditExamples,
  ...paymentsExamples,
  ...gaslessExamples,
  ...checkoutExamples,
  ...balanceTransactionsExamples,
  ...invoicesExamples,
  ...withdrawalsExamples,
  ...walletsExamples,
  ...refundsExamples,
  ...webhooksExamples,
};

/** The example of an operation, or of the operation it is the dashboard twin of. */
export const exampleOf = (route: { operationId: string; twinOf?: string }): OperationExample | undefined =>
  operationExamples[route.operationId] ?? (route.twinOf ? operationExamples[route.twinOf] : undefined);

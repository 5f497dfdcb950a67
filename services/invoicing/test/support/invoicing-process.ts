import { fileURLToPath } from 'node:url';
import { startServiceProcess, type ServiceProcess } from '@stablepay/platform/testing';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export type InvoicingProcess = ServiceProcess;

/** The invoicing service's real entry point as its own process (to kill it mid-transaction). */
export const startInvoicingProcess = (env: Record<string, string>): Promise<InvoicingProcess> =>
  startServiceProcess('invoicing', MAIN, env);

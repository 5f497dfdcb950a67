import type { ChainRegistry } from '@stablepay/contracts';
import type { ServiceDefinition } from '@stablepay/platform';
import { chainWatcherService } from '@stablepay/chain-watcher';
import { devnetAccount, type Devnet } from '@stablepay/devnet';
import { gatewayService } from '@stablepay/gateway';
import { invoicingService } from '@stablepay/invoicing';
import { notifierService } from '@stablepay/notifier';
import { paymentsService } from '@stablepay/payments';
import { refundsService } from '@stablepay/refunds';
import { join } from 'node:path';

/** What the stack knows when it configures a service. */
export interface StackEnvInput {
  registry: ChainRegistry;
  relayerKeys: Record<string, string>;
  checkoutUrl: string;
  /** The merchant dashboard, whose origin the gateway allows by CORS. */
  dashboardUrl: string;
  varDir: string;
  attestationUrl: string;
  /** URLs of the services started so far, by service name. */
  urls: Record<string, string>;
}

/**
 * The live devnet's chains (each asking `confirmations` when given) and its relayers, funded with
 * gas, as every service of the stack sees them.
 */
export const devnetEnvInput = (
  devnet: Devnet,
  confirmations: number | undefined,
  rest: Omit<StackEnvInput, 'registry' | 'relayerKeys'>,
): StackEnvInput => {
  const registry = devnet.registry();
  return {
    registry:
      confirmations === undefined
        ? registry
        : { ...registry, chains: registry.chains.map((c) => ({ ...c, confirmations })) },
    relayerKeys: Object.fromEntries(
      Object.entries(devnet.relayers).map(([name, r]) => [name, r!.privateKey]),
    ),
    ...rest,
  };
};

export interface StackServiceEntry {
  // Each entry keeps its own definition's types; the table only needs what every definition has.
  definition: ServiceDefinition<any, any, any, any>;
  /** The schema of the shared database that holds the service's tables. */
  schema: string;
  port: 'chainWatcher' | 'payments' | 'refunds' | 'invoicing' | 'notifier' | 'gateway';
  /** Defaults the stack's own environment may override (tuning knobs). */
  defaults?: (input: StackEnvInput) => Record<string, string>;
  /** What the stack decides (wins over the environment). */
  env: (input: StackEnvInput) => Record<string, string>;
}

/** The dashboard's origin, and its `localhost` spelling when it listens on 127.0.0.1. */
const dashboardOrigins = (url: string): string[] => {
  const u = new URL(url);
  return u.hostname === '127.0.0.1' ? [u.origin, `${u.protocol}//localhost:${u.port}`] : [u.origin];
};

const chains = (input: StackEnvInput) => ({ CHAIN_REGISTRY: JSON.stringify(input.registry) });

/**
 * The devnet's treasury: where withdrawal fees go. A devnet mnemonic account (public key, index 2500,
 * free in the devnet's derivation plan), so tests and developers can read what it received.
 */
export const DEVNET_TREASURY = devnetAccount(2500);

/**
 * The seller on the demo's invoices: a fictional company with everything an EU invoice names (a
 * placeholder street, and the VAT number format's textbook example), overridden by any SELLER_*.
 */
const DEMO_SELLER = {
  SELLER_NAME: 'Stablepay Demo GmbH',
  SELLER_STREET: 'Musterstraße 12',
  SELLER_POSTCODE: '10115',
  SELLER_CITY: 'Berlin',
  SELLER_COUNTRY: 'DE',
  SELLER_VAT_NUMBER: 'DE123456789',
  SELLER_EMAIL: 'billing@stablepay.example',
};

/**
 * Every service of the embedded stack, in start order: the gateway last, once every upstream it
 * routes to listens. Adding a service is one entry here.
 */
export const stackServices: StackServiceEntry[] = [
  {
    definition: chainWatcherService,
    schema: 'chain_watcher',
    port: 'chainWatcher',
    defaults: () => ({ VERIFY_POLL_MS: '250', TRANSFER_POLL_MS: '250' }),
    // The devnet's relayers are funded with gas; they submit merchants' outgoing transfers.
    env: (input) => ({
      ...chains(input),
      RELAYER_PRIVATE_KEYS: JSON.stringify(input.relayerKeys),
      CCTP_ATTESTATION_URL: input.attestationUrl,
    }),
  },
  {
    definition: paymentsService,
    schema: 'payments',
    port: 'payments',
    env: (input) => ({
      ...chains(input),
      CHECKOUT_URL: input.checkoutUrl,
      ALLOW_INSECURE_URLS: 'true',
      CHAIN_WATCHER_URL: input.urls['chain-watcher']!,
    }),
  },
  {
    definition: refundsService,
    schema: 'refunds',
    port: 'refunds',
    // A refund of a payment not projected yet reads it from the payments service.
    env: (input) => ({ CHAIN_WATCHER_URL: input.urls['chain-watcher']!, PAYMENTS_URL: input.urls.payments! }),
  },
  {
    definition: invoicingService,
    schema: 'invoicing',
    port: 'invoicing',
    // Invoice PDFs as files under var/; the fees of the devnet go to its treasury account.
    defaults: (input) => ({
      INVOICE_STORAGE_DIR: join(input.varDir, 'invoices'),
      TREASURY_ADDRESS: DEVNET_TREASURY.address,
      PDF_POLL_MS: '250',
      // The demo stays quick: a new withdrawal address is usable at once (24 h in production).
      WITHDRAWAL_ADDRESS_HOLD: '0',
      ...DEMO_SELLER,
    }),
    env: (input) => ({ CHAIN_WATCHER_URL: input.urls['chain-watcher']! }),
  },
  {
    definition: notifierService,
    schema: 'notifier',
    port: 'notifier',
    // Local development: webhooks to http:// and loopback receivers, mail written as .eml files.
    defaults: (input) => ({ ALLOW_INSECURE_WEBHOOKS: 'true', MAIL_DIR: join(input.varDir, 'mail') }),
    // Invoice e-mails attach the PDF fetched from the invoicing service.
    env: (input) => ({ INVOICING_URL: input.urls.invoicing! }),
  },
  {
    definition: gatewayService,
    schema: 'gateway',
    port: 'gateway',
    env: (input) => ({
      ...chains(input),
      // Published by GET /chains for the checkout page's bridge-kit flow.
      CCTP_ATTESTATION_URL: input.attestationUrl,
      PAYMENTS_URL: input.urls.payments!,
      CHAIN_WATCHER_URL: input.urls['chain-watcher']!,
      REFUNDS_URL: input.urls.refunds!,
      INVOICING_URL: input.urls.invoicing!,
      NOTIFIER_URL: input.urls.notifier!,
      CORS_DASHBOARD_ORIGINS: dashboardOrigins(input.dashboardUrl).join(','),
      // E-mailed links (confirming an address) open the embedded dashboard.
      DASHBOARD_URL: input.dashboardUrl,
    }),
  },
];

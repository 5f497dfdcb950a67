import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkoutConfigSchema } from '@stablepay/checkout/server';
import { ConfigError, loadConfig } from '@stablepay/platform';
import { ensureDemoMerchant } from './demo.js';
import { resolvePorts } from './ports.js';
import { startStack } from './stack.js';

const varDir = resolve(process.env.VAR_DIR ?? 'var');
const env = process.env;

/** The checkout server's own variables the stack passes on, checked as the server checks them. */
const checkoutEnv = (() => {
  try {
    return loadConfig(checkoutConfigSchema.pick({ WIDGET_ORIGINS: true }), env);
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
})();

const stack = await startStack({
  varDir,
  databaseUrl: env.DATABASE_URL,
  amqpUrl: env.AMQP_URL,
  amqpPrefix: env.AMQP_PREFIX,
  host: env.HOST ?? '127.0.0.1',
  logLevel: env.LOG_LEVEL ?? 'warn',
  // A shop page of the developer's own (http://localhost:3000, say) may open the widget by merchant id.
  widgetOrigins: checkoutEnv.WIDGET_ORIGINS,
  // Tuning knobs pass through to every service; the rest of the environment stays the stack's own.
  env: Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] =>
        /^(RATE_LIMIT_|SIGNIN_LOCKOUT_|REDIS_|TRUSTED_PROXIES$|SCRYPT_|VERIFY_|REFUND_|TX_NOT_FOUND_|WEBHOOK_|SMTP_|MAIL_|WITHDRAWAL_|INVOICE_|SELLER_|EUR_RATE_|TREASURY_)/.test(
          e[0],
        ) && !!e[1],
    ),
  ),
  // Each port from its variable, else the default the README states.
  ports: resolvePorts({}, env),
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping`);
  await stack.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

const devnetFile = join(varDir, 'devnet.json');
// With SMTP set, the confirmation link goes to a real mailbox: the demo merchant is confirmed from there.
const mailDir = env.SMTP_URL ? undefined : (env.MAIL_DIR ?? join(varDir, 'mail'));
const merchant = await ensureDemoMerchant(stack.gatewayUrl, devnetFile, mailDir);
const devnet = {
  gatewayUrl: stack.gatewayUrl,
  checkoutUrl: stack.checkoutUrl,
  dashboardUrl: stack.dashboardUrl,
  widgetExampleUrl: `${stack.checkoutUrl}widget-example.html?merchant=${merchant.id}`,
  docsUrl: `${stack.gatewayUrl}/docs`,
  services: Object.fromEntries(stack.services.map((s) => [s.name, s.url])),
  merchant,
  attestationUrl: stack.attestation.url,
  chains: stack.devnet.chains,
  customers: stack.devnet.customers,
};
writeFileSync(devnetFile, JSON.stringify(devnet, null, 2), { mode: 0o600 });

console.log(`
Stablepay is running (data in ${varDir}).
  Gateway (REST API)   ${devnet.gatewayUrl}
  API reference        ${devnet.docsUrl}
  Checkout page        ${devnet.checkoutUrl} (a session's url is ${devnet.checkoutUrl}?session=<id>)
  Widget example       ${devnet.widgetExampleUrl}
  Merchant dashboard   ${devnet.dashboardUrl}
  Demo merchant id     ${merchant.id}
  Demo API key         ${merchant.apiKey}
  Dashboard login      ${merchant.email} / ${merchant.password}
  Devnet chains        ${stack.devnet.chains.map((c) => `${c.name} ${c.rpcUrl} (chain id ${c.chainId}, CCTP domain ${c.cctpDomain})`).join('\n                       ')}
  Attestation API      ${stack.attestation.url} (Circle's paths; CCTP addresses in devnet.json)
  Mail (no SMTP set)   written as .eml files under ${join(varDir, 'mail')} (with new accounts' confirmation links)
  Invoice PDFs         stored under ${join(varDir, 'invoices')}
  Customer accounts    ${stack.devnet.customers.length} funded with gas, USDC and EURC (keys in devnet.json; public devnet keys)
Everything above is also in ${devnetFile}. Ctrl-C stops the stack.
`);

import { DEVNET_ATTESTATION_PORT } from '@stablepay/devnet/attestation/index';

export type StackPort =
  | 'gateway'
  | 'payments'
  | 'chainWatcher'
  | 'refunds'
  | 'invoicing'
  | 'notifier'
  | 'checkout'
  | 'dashboard'
  | 'devnet'
  | 'attestation';

/** The ports `npm start` listens on, as the README and docs/configuration.md state them. */
export const DEFAULT_PORTS: Record<StackPort, number> = {
  gateway: 8080,
  checkout: 8081,
  dashboard: 8082,
  payments: 8101,
  chainWatcher: 8102,
  refunds: 8103,
  invoicing: 8104,
  notifier: 8105,
  devnet: 8545,
  attestation: DEVNET_ATTESTATION_PORT,
};

/** Every port picked free: stacks running side by side (tests, benches) never contend for one. */
export const FREE_PORTS: Record<StackPort, number> = Object.fromEntries(
  Object.keys(DEFAULT_PORTS).map((port) => [port, 0]),
) as Record<StackPort, number>;

/** The variable that moves each port under `npm start`. */
export const PORT_ENV: Record<StackPort, string> = {
  gateway: 'GATEWAY_PORT',
  checkout: 'CHECKOUT_PORT',
  dashboard: 'DASHBOARD_PORT',
  payments: 'PAYMENTS_PORT',
  chainWatcher: 'CHAIN_WATCHER_PORT',
  refunds: 'REFUNDS_PORT',
  invoicing: 'INVOICING_PORT',
  notifier: 'NOTIFIER_PORT',
  devnet: 'DEVNET_PORT',
  attestation: 'ATTESTATION_PORT',
};

const parsePort = (variable: string, raw: string): number => {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${variable} must be a port number from 0 to 65535, not "${raw}"`);
  return port;
};

/**
 * Every port of the stack: the caller's choice, else its variable in `env`, else the documented
 * default; 0 asks for any free port. A key present but `undefined` counts as no choice, which a plain
 * object spread would not do (it once put the checkout page on a random port).
 */
export const resolvePorts = (
  chosen: Partial<Record<StackPort, number | undefined>> = {},
  env: Record<string, string | undefined> = {},
): Record<StackPort, number> => {
  const resolved = { ...DEFAULT_PORTS };
  for (const port of Object.keys(DEFAULT_PORTS) as StackPort[]) {
    const own = chosen[port];
    const raw = env[PORT_ENV[port]];
    if (own !== undefined) resolved[port] = own;
    else if (raw) resolved[port] = parsePort(PORT_ENV[port], raw);
  }
  return resolved;
};

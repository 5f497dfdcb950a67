import { parseArgs } from 'node:util';
import { startDevnet } from './devnet.js';

// Runs the devnet alone, e.g. to point a wallet at it: `npm start -w @stablepay/devnet -- --state-dir var/chains`.
const { values } = parseArgs({
  options: {
    'state-dir': { type: 'string' },
    'base-port': { type: 'string' },
    customers: { type: 'string' },
    'block-time': { type: 'string' },
  },
});
const numberOption = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
  return value;
};
const basePort = numberOption('base-port', values['base-port']);
const customers = numberOption('customers', values.customers);
const blockTime = numberOption('block-time', values['block-time']);

const devnet = await startDevnet({
  ...(values['state-dir'] ? { stateDir: values['state-dir'] } : {}),
  ...(basePort !== undefined ? { basePort } : {}),
  ...(customers !== undefined ? { customers } : {}),
  ...(blockTime ? { blockTime } : {}),
});
process.stdout.write(
  `${JSON.stringify({ chains: devnet.chains, customers: devnet.customers, relayers: devnet.relayers }, null, 2)}\n` +
    'Devnet keys are public test keys. Ctrl-C stops the chains (their state is saved with --state-dir).\n',
);
const shutdown = (): void => {
  void devnet.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

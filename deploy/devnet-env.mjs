// Starts a service with the devnet's chain registry, relayer keys and attestation URL when the
// devnet container has written them (`docker compose --profile devnet up`), unchanged otherwise:
//   node deploy/devnet-env.mjs services/payments/dist/main.js
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = join(process.env.DEVNET_DIR ?? '/home/node/devnet', 'devnet-env.json');
if (existsSync(file)) {
  const { browser, ...devnet } = JSON.parse(readFileSync(file, 'utf8'));
  // Variables set on the container win over the devnet's.
  for (const [key, value] of Object.entries(devnet)) if (!process.env[key]) process.env[key] = value;
  process.env.CHAIN_NETWORK = 'devnet';
  // What the process hands to browsers (the gateway's GET /chains, the checkout page's CSP) names
  // the devnet as the host reaches it, not as the containers do.
  if (process.env.DEVNET_FOR_BROWSERS === 'true') {
    process.env.PUBLIC_RPC_URLS ||= browser.PUBLIC_RPC_URLS;
    process.env.CCTP_ATTESTATION_URL = browser.CCTP_ATTESTATION_URL;
    process.env.CONNECT_SRC = [process.env.CONNECT_SRC, browser.CONNECT_SRC].filter(Boolean).join(',');
  }
}
const entry = process.argv[2];
if (!entry) {
  console.error('usage: node deploy/devnet-env.mjs <entry point>');
  process.exit(2);
}
await import(pathToFileURL(resolve(entry)).href);

// The devnet as a container (`docker compose --profile devnet up`): the anvil chains, our tokens and
// CCTP contracts, and the attestation service with Circle's API, reachable from the other
// containers. Anvil listens on loopback only, so each chain is forwarded from 0.0.0.0:<port> to its
// loopback port. The registry the services need (token and CCTP addresses, RPC URLs as the other
// containers reach them), the relayer keys and the attestation URL are written to
// $DEVNET_DIR/devnet-env.json with the URLs browsers use on the host, which deploy/devnet-env.mjs
// reads in each service container; it is
// removed on shutdown so that a later run without the profile does not point at a devnet that is gone.
import { createServer, connect } from 'node:net';
import { rmSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { startDevnet } from '@stablepay/devnet';
import { DEVNET_ATTESTATION_PORT, startDevnetAttestationService } from '@stablepay/devnet/attestation/index';

const dir = process.env.DEVNET_DIR ?? '/home/node/devnet';
const host = process.env.DEVNET_HOST ?? 'devnet';
const publicBase = Number(process.env.DEVNET_BASE_PORT ?? 8545);
const loopbackBase = publicBase + 10000;
const attestationPort = Number(process.env.ATTESTATION_PORT ?? DEVNET_ATTESTATION_PORT);
const envFile = join(dir, 'devnet-env.json');

const forward = (fromPort, toPort) =>
  new Promise((resolve) => {
    const server = createServer((socket) => {
      const upstream = connect(toPort, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', close);
      upstream.on('error', close);
    });
    server.listen(fromPort, '0.0.0.0', () => resolve(server));
  });

const devnet = await startDevnet({ stateDir: join(dir, 'chains'), basePort: loopbackBase });
const attestation = await startDevnetAttestationService(devnet, { port: attestationPort, host: '0.0.0.0' });
const servers = [];
const registry = devnet.registry();
registry.chains = registry.chains.map((chain, i) => ({
  ...chain,
  rpcUrls: [`http://${host}:${publicBase + i}`],
}));
for (let i = 0; i < devnet.chains.length; i++) servers.push(await forward(publicBase + i, loopbackBase + i));

// What customers' browsers reach (the ports compose publishes on the host): GET /chains and the
// checkout page's Content-Security-Policy name these, not the containers' addresses.
const browserHost = process.env.DEVNET_BROWSER_HOST ?? 'localhost';
const browserRpc = Object.fromEntries(
  registry.chains.map((chain, i) => [chain.name, [`http://${browserHost}:${publicBase + i}`]]),
);
const browserAttestation = `http://${browserHost}:${attestationPort}`;
const env = {
  browser: {
    PUBLIC_RPC_URLS: JSON.stringify(browserRpc),
    CCTP_ATTESTATION_URL: browserAttestation,
    CONNECT_SRC: [...Object.values(browserRpc).flat(), browserAttestation].join(','),
  },
  CHAIN_REGISTRY: JSON.stringify(registry),
  RELAYER_PRIVATE_KEYS: JSON.stringify(
    Object.fromEntries(Object.entries(devnet.relayers).map(([name, r]) => [name, r.privateKey])),
  ),
  CCTP_ATTESTATION_URL: `http://${host}:${attestationPort}`,
};
writeFileSync(`${envFile}.tmp`, JSON.stringify(env, null, 2));
renameSync(`${envFile}.tmp`, envFile);
process.stdout.write(
  JSON.stringify({
    level: 'info',
    message: 'devnet ready',
    chains: registry.chains.map((c) => c.rpcUrls[0]),
    attestation: env.CCTP_ATTESTATION_URL,
  }) + '\n',
);

const stop = async () => {
  rmSync(envFile, { force: true });
  for (const s of servers) s.close();
  await attestation.stop?.();
  await devnet.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

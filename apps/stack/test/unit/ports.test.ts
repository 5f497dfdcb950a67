import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEFAULT_PORTS, FREE_PORTS, PORT_ENV, resolvePorts, type StackPort } from '../../src/ports.js';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const ports = Object.keys(DEFAULT_PORTS) as StackPort[];

describe('stack ports', () => {
  it('without variables, every port is the documented default', () => {
    expect(resolvePorts({}, {})).to.deep.equal({
      gateway: 8080,
      checkout: 8081,
      dashboard: 8082,
      payments: 8101,
      chainWatcher: 8102,
      refunds: 8103,
      invoicing: 8104,
      notifier: 8105,
      devnet: 8545,
      attestation: 8790,
    });
  });

  it('a port given as undefined keeps its default, as `npm start` passes unset variables', () => {
    expect(resolvePorts({ checkout: undefined, attestation: undefined })).to.deep.equal(DEFAULT_PORTS);
  });

  it('a variable moves its port, the caller wins over it, and 0 stays 0 (any free port)', () => {
    const env = { CHECKOUT_PORT: '18081', ATTESTATION_PORT: '0', GATEWAY_PORT: '', DASHBOARD_PORT: '18082' };
    const resolved = resolvePorts({ dashboard: 0 }, env);
    expect(resolved).to.include({ checkout: 18081, attestation: 0, gateway: 8080, dashboard: 0 });
    expect(resolvePorts(FREE_PORTS, env)).to.deep.equal(Object.fromEntries(ports.map((p) => [p, 0])));
  });

  it('refuses a variable that is not a port, naming it', () => {
    for (const bad of ['http', '80.5', '-1', '65536'])
      expect(() => resolvePorts({}, { ATTESTATION_PORT: bad })).to.throw(/ATTESTATION_PORT/);
  });

  it('docs/configuration.md and the README state every default', () => {
    const configuration = readFileSync(resolve(root, 'docs/configuration.md'), 'utf8');
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    for (const port of ports) {
      expect(configuration).to.contain(`| \`${PORT_ENV[port]}\` | \`${DEFAULT_PORTS[port]}\` |`);
      expect(readme).to.match(new RegExp(`\\b${DEFAULT_PORTS[port]}\\b`), port);
    }
  });
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { checkoutConfigSchema } from '@stablepay/checkout/server';
import { chainWatcherConfigSchema, loadChainWatcherConfig } from '@stablepay/chain-watcher';
import { ConfigError, loadConfig } from '@stablepay/platform';
import { gatewayConfigSchema, loadGatewayConfig } from '@stablepay/gateway';
import { invoicingConfigSchema, loadInvoicingConfig } from '@stablepay/invoicing';
import { loadNotifierConfig, notifierConfigSchema } from '@stablepay/notifier';
import { loadPaymentsConfig, paymentsConfigSchema } from '@stablepay/payments';
import { loadRefundsConfig, refundsConfigSchema } from '@stablepay/refunds';
import { readDocuments, renderKustomization, type K8sObject } from './deploy/kustomize.js';
import { validateStrict } from './deploy/strict-schema.js';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const overlays = ['local', 'production'] as const;
const render = (overlay: string) => renderKustomization(join(root, 'k8s', 'overlays', overlay));
const exampleSecret = readDocuments(join(root, 'k8s/base/secret.example.yaml'))[0]!;

/** Each service: its config loader, its schema, its port; the queue its workers consume. */
const services = {
  gateway: { load: loadGatewayConfig, schema: gatewayConfigSchema, port: 8080 },
  payments: { load: loadPaymentsConfig, schema: paymentsConfigSchema, port: 8101 },
  'chain-watcher': { load: loadChainWatcherConfig, schema: chainWatcherConfigSchema, port: 8102 },
  refunds: { load: loadRefundsConfig, schema: refundsConfigSchema, port: 8103 },
  invoicing: { load: loadInvoicingConfig, schema: invoicingConfigSchema, port: 8104 },
  notifier: { load: loadNotifierConfig, schema: notifierConfigSchema, port: 8105 },
} as const;
type ServiceName = keyof typeof services;
const serviceNames = Object.keys(services) as ServiceName[];

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
/** The app an object belongs to (its `app.kubernetes.io/name` label), empty when unlabelled. */
const appName = (o: K8sObject): string => o.metadata.labels?.['app.kubernetes.io/name'] ?? '';
const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  expect(found, `${kind}/${name}`).to.not.equal(undefined);
  return found!;
};

/** Where the overlay's `stablepay-secrets` comes from: a Secret's keys, or an ExternalSecret's. */
const secretSource = (objects: K8sObject[]): { keys: string[]; values: Record<string, string> } => {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'stablepay-secrets');
  if (secret) return { keys: Object.keys(secret.stringData), values: secret.stringData };
  const external = named(objects, 'ExternalSecret', 'stablepay-secrets');
  expect(external.spec.target.name).to.equal('stablepay-secrets');
  // The example's values stand in for the store's: they have the formats the services check.
  return {
    keys: external.spec.data.map((d: { secretKey: string }) => d.secretKey),
    values: exampleSecret.stringData,
  };
};

/** The environment a container gets, resolved from the rendered ConfigMaps and the secret. */
const containerEnv = (objects: K8sObject[], container: any): Record<string, string> => {
  const secret = secretSource(objects);
  const configMap = (name: string) => named(objects, 'ConfigMap', name).data as Record<string, string>;
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) Object.assign(env, configMap(from.configMapRef.name));
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      expect(configMap(ref.name), `${container.name} ${e.name}: ${ref.name}.${ref.key}`).to.have.property(
        ref.key,
      );
      env[e.name] = configMap(ref.name)[ref.key]!;
    } else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      expect(ref.name).to.equal('stablepay-secrets');
      if (ref.optional) {
        // Only a rotation's previous value is optional: it is in the store while a secret is rotated.
        expect(ref.key, `${container.name} ${e.name}`)
          .to.match(/_PREVIOUS$/)
          .and.equal(e.name);
        const current = ref.key.replace(/_PREVIOUS$/, '');
        expect(
          (container.env ?? []).some((c: any) => c.valueFrom?.secretKeyRef?.key === current),
          `${container.name} reads ${current} beside ${ref.key}`,
        ).to.equal(true);
        continue;
      }
      expect(exampleSecret.stringData, `example secret has ${ref.key}`).to.have.property(ref.key);
      expect(secret.keys, `the overlay's secret has ${ref.key}`).to.include(ref.key);
      env[e.name] = secret.values[ref.key] ?? '';
    } else throw new Error(`${container.name} ${e.name}: unsupported env source`);
  }
  return env;
};

const serviceDeployments = (objects: K8sObject[]) =>
  ofKind(objects, 'Deployment').filter((d) => appName(d) in services);

describe('deployment manifests', () => {
  for (const overlay of overlays) {
    describe(`the ${overlay} overlay`, () => {
      const objects = render(overlay);

      it('every object validates against its Kubernetes or CRD schema, unknown fields refused', () => {
        expect(objects.length).to.be.greaterThan(30);
        for (const o of objects) expect(validateStrict(o), `${o.kind}/${o.metadata.name}`).to.deep.equal([]);
      });

      it('runs each service as an api and a worker Deployment, migrating before it starts', () => {
        for (const name of serviceNames) {
          for (const role of ['api', 'worker']) {
            const d = named(objects, 'Deployment', `${name}-${role}`);
            const pod = d.spec.template.spec;
            const [main] = pod.containers;
            expect(main.args).to.deep.equal([`services/${name}/dist/main.js`]);
            expect(containerEnv(objects, main).SERVICE_ROLE).to.equal(role);
            expect(pod.initContainers.map((c: any) => c.args)).to.deep.equal([['deploy/migrate.mjs', name]]);
            const migrate = containerEnv(objects, pod.initContainers[0]);
            expect(migrate.DATABASE_URL).to.equal(containerEnv(objects, main).DATABASE_URL);
            expect(d.spec.selector.matchLabels).to.deep.equal({
              'app.kubernetes.io/name': name,
              'app.kubernetes.io/component': role,
            });
          }
        }
      });

      it("every container's environment satisfies its service's own configuration loader", () => {
        for (const d of serviceDeployments(objects)) {
          const name = d.metadata.labels!['app.kubernetes.io/name'] as ServiceName;
          const env = containerEnv(objects, d.spec.template.spec.containers[0]);
          const { schema, load } = services[name];
          // Required by the schema (no default), and what a replicated deployment needs besides.
          const required = Object.entries(schema.shape)
            .filter(
              ([, field]) =>
                !(field as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success,
            )
            .map(([key]) => key);
          for (const key of [...required, 'DATABASE_URL', 'AMQP_URL', 'NODE_ENV'])
            expect(env[key], `${d.metadata.name}: ${key}`).to.be.a('string').and.not.equal('');
          expect(() => load(env), d.metadata.name).to.not.throw();
        }
        // The web front ends: the gateway's public URL for the browser; the dashboard's origin in
        // the gateway's CORS list.
        for (const app of ['checkout', 'dashboard']) {
          const d = named(objects, 'Deployment', app);
          const env = containerEnv(objects, d.spec.template.spec.containers[0]);
          expect(env.GATEWAY_URL, app).to.match(/^https?:\/\//);
          expect(d.spec.template.spec.containers[0].args).to.deep.equal([`apps/${app}/server/dist/main.js`]);
        }
        const gateway = containerEnv(
          objects,
          named(objects, 'Deployment', 'gateway-api').spec.template.spec.containers[0],
        );
        expect(gateway.CORS_DASHBOARD_ORIGINS).to.match(/^https?:\/\//);
      });

      it("the checkout server's environment loads, and it asks the gateway which shop may frame the widget", () => {
        const env = containerEnv(
          objects,
          named(objects, 'Deployment', 'checkout').spec.template.spec.containers[0],
        );
        const config = loadConfig(checkoutConfigSchema, env);
        // Inside the cluster, at the gateway's Service: the public address may not loop back in.
        const internal = new URL(config.GATEWAY_INTERNAL_URL!);
        const gateway = named(objects, 'Service', internal.hostname);
        expect(gateway.spec.ports.map((p: { port: number }) => String(p.port))).to.include(internal.port);
        expect(config.WIDGET_ORIGINS).to.deep.equal([]);
        expect(() => loadConfig(checkoutConfigSchema, { ...env, WIDGET_ORIGINS: 'not a url' })).to.throw(
          ConfigError,
          'WIDGET_ORIGINS',
        );
      });

      it('ports agree: PORT, the container port, probes, Services and the URLs services call', () => {
        for (const d of ofKind(objects, 'Deployment')) {
          const [c] = d.spec.template.spec.containers;
          const name = appName(d);
          if (!(name in services) && !['checkout', 'dashboard'].includes(name)) continue;
          const port = c.ports.find((p: any) => p.name === 'http').containerPort;
          expect(containerEnv(objects, c).PORT, d.metadata.name).to.equal(String(port));
          if (name in services) expect(port).to.equal(services[name as ServiceName].port);
          for (const probe of [c.readinessProbe, c.livenessProbe])
            expect(probe.httpGet.port).to.be.oneOf(['http', port]);
          expect(c.readinessProbe.httpGet.path).to.equal('/readyz');
          expect(c.livenessProbe.httpGet.path).to.equal('/healthz');
          expect(d.spec.template.metadata.annotations?.['prometheus.io/port'] ?? String(port)).to.equal(
            String(port),
          );
        }
        for (const svc of ofKind(objects, 'Service')) {
          const pods = ofKind(objects, 'Deployment').filter((d) =>
            matches(svc.spec.selector, d.spec.template.metadata.labels),
          );
          expect(pods, `Service ${svc.metadata.name} selects pods`).to.not.be.empty;
          for (const p of svc.spec.ports)
            for (const d of pods) {
              const target = d.spec.template.spec.containers[0].ports.find(
                (cp: any) => cp.name === p.targetPort || cp.containerPort === p.targetPort,
              );
              expect(target, `${svc.metadata.name} → ${d.metadata.name}:${p.targetPort}`).to.not.equal(
                undefined,
              );
              if (svc.metadata.name in services) expect(p.port).to.equal(target.containerPort);
            }
          // A Service of a platform service reaches its API pods, never its workers.
          if (svc.metadata.name in services)
            expect(svc.spec.selector['app.kubernetes.io/component']).to.equal('api');
        }
        // Every internal URL in the configuration names a Service and its port (the public ones, which
        // browsers and e-mailed links open, do not).
        const config = named(objects, 'ConfigMap', 'stablepay-config').data as Record<string, string>;
        const publicUrls = new Set(['CHECKOUT_URL', 'PUBLIC_GATEWAY_URL', 'DASHBOARD_URL']);
        for (const [key, value] of Object.entries(config).filter(
          ([k]) => /^[A-Z_]+_URL$/.test(k) && !publicUrls.has(k),
        )) {
          const url = new URL(value);
          const svc = named(objects, 'Service', url.hostname);
          expect(
            svc.spec.ports.map((p: any) => String(p.port)),
            key,
          ).to.include(url.port);
        }
      });

      if (overlay === 'production') {
        it('scales APIs on CPU and workers on their queue depth through KEDA, with disruption budgets', () => {
          for (const name of serviceNames) {
            const hpa = named(objects, 'HorizontalPodAutoscaler', `${name}-api`);
            expect(hpa.spec.scaleTargetRef).to.deep.equal({
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: `${name}-api`,
            });
            expect(hpa.spec.metrics[0].resource.name).to.equal('cpu');
            const so = named(objects, 'ScaledObject', `${name}-worker`);
            expect(so.spec.scaleTargetRef.name).to.equal(`${name}-worker`);
            const rabbit = so.spec.triggers.find((t: any) => t.type === 'rabbitmq');
            // The queue the platform declares for the service: `<AMQP_PREFIX><service>`, no prefix here.
            expect(rabbit.metadata.queueName).to.equal(name);
            named(objects, 'TriggerAuthentication', rabbit.authenticationRef.name);
            expect(
              objects.filter(
                (o) =>
                  o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === `${name}-worker`,
              ),
            ).to.be.empty;
            for (const role of ['api', 'worker']) {
              const pdb = named(objects, 'PodDisruptionBudget', `${name}-${role}`);
              const d = named(objects, 'Deployment', `${name}-${role}`);
              expect(matches(pdb.spec.selector.matchLabels, d.spec.template.metadata.labels)).to.equal(true);
            }
          }
          named(objects, 'Cluster', 'stablepay-pg');
          named(objects, 'RabbitmqCluster', 'stablepay-rabbitmq');
        });

        it('the PostgreSQL cluster has a database and role for each service URL, with its password secret', () => {
          const cluster = named(objects, 'Cluster', 'stablepay-pg');
          const roles = cluster.spec.managed.roles as Array<{
            name: string;
            passwordSecret: { name: string };
          }>;
          for (const url of Object.entries(exampleSecret.stringData as Record<string, string>).filter(([k]) =>
            k.endsWith('_DATABASE_URL'),
          )) {
            const db = new URL(url[1]).pathname.slice(1);
            expect(cluster.spec.bootstrap.initdb.postInitSQL).to.include(`CREATE DATABASE ${db} OWNER ${db}`);
            const role = roles.find((r) => r.name === db);
            expect(role, `role ${db}`).to.not.equal(undefined);
            const es = named(objects, 'ExternalSecret', role!.passwordSecret.name);
            expect(es.spec.target.template.type).to.equal('kubernetes.io/basic-auth');
            expect(es.spec.target.template.data.username).to.equal(db);
          }
        });
      }

      it('NetworkPolicies allow exactly the arrows of docs/architecture.md', () => {
        const expected = documentedArrows();
        const allowed = new Set<string>();
        const pods = ofKind(objects, 'Deployment').filter(
          (d) => d.metadata.labels?.['app.kubernetes.io/part-of'] === 'stablepay',
        );
        const policies = ofKind(objects, 'NetworkPolicy');
        const outside = { labels: {}, namespace: 'elsewhere' };
        const monitoring = { labels: {}, namespace: 'monitoring' };
        for (const target of pods) {
          const labels = target.spec.template.metadata.labels;
          const port = target.spec.template.spec.containers[0].ports[0];
          const applying = policies.filter((p) => matchesSelector(p.spec.podSelector, labels));
          expect(applying.length, `${target.metadata.name} is covered by a policy`).to.be.greaterThan(0);
          const admits = (source: { labels: Record<string, string>; namespace: string }) =>
            applying.some((p) =>
              (p.spec.ingress ?? []).some(
                (rule: any) =>
                  (rule.ports ?? [{}]).some(
                    (rp: any) =>
                      rp.port === undefined || rp.port === port.name || rp.port === port.containerPort,
                  ) &&
                  (rule.from === undefined ||
                    rule.from.some((peer: any) =>
                      peer.podSelector
                        ? source.namespace === 'stablepay' && matchesSelector(peer.podSelector, source.labels)
                        : peer.namespaceSelector &&
                          source.namespace ===
                            peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name'],
                    )),
              ),
            );
          const to = `${labels['app.kubernetes.io/name']}${labels['app.kubernetes.io/component'] === 'worker' ? ' worker' : ''}`;
          expect(admits(monitoring), `monitoring scrapes ${target.metadata.name}`).to.equal(true);
          if (admits(outside)) allowed.add(`outside → ${to}:${port.containerPort}`);
          for (const source of pods) {
            const from = source.spec.template.metadata.labels;
            if (source === target || !admits({ labels: from, namespace: 'stablepay' })) continue;
            if (admits(outside)) continue; // public: already the "outside" arrow
            allowed.add(`${from['app.kubernetes.io/name']} → ${to}:${port.containerPort}`);
          }
        }
        expect([...allowed].sort()).to.deep.equal([...expected].sort());
      });
    });
  }

  it('the arrows of docs/architecture.md are the internal URLs the services are configured with', () => {
    const urlTargets: Record<string, string> = {
      PAYMENTS_URL: 'payments',
      CHAIN_WATCHER_URL: 'chain-watcher',
      REFUNDS_URL: 'refunds',
      INVOICING_URL: 'invoicing',
      NOTIFIER_URL: 'notifier',
    };
    const fromConfig = serviceNames.flatMap((name) =>
      Object.keys(services[name].schema.shape)
        .filter((k) => k in urlTargets)
        .map((k) => `${name} → ${urlTargets[k]}:${services[urlTargets[k] as ServiceName].port}`),
    );
    const internal = [...documentedArrows()].filter((a) => !a.startsWith('outside'));
    expect(internal.sort()).to.deep.equal(fromConfig.sort());
  });

  it('the renderer agrees with kubectl kustomize, where kubectl is installed', function () {
    let version: string;
    try {
      version = execFileSync('kubectl', ['version', '--client'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      console.log('      kubectl not installed: the overlays were rendered by the test renderer alone');
      return this.skip();
    }
    expect(version).to.match(/Kustomize Version/);
    for (const overlay of overlays) {
      const reference = parseAllDocuments(
        execFileSync('kubectl', ['kustomize', join(root, 'k8s/overlays', overlay)], { encoding: 'utf8' }),
      ).map((d) => d.toJSON() as K8sObject);
      const mine = render(overlay);
      expect(mine.length).to.equal(reference.length);
      for (const ref of reference) {
        const ours = mine.find((o) => o.kind === ref.kind && o.metadata.name === ref.metadata.name);
        expect(isDeepStrictEqual(ours, ref), `${overlay}: ${ref.kind}/${ref.metadata.name}`).to.equal(true);
      }
    }
  });

  it('the strict validation refuses an unknown field, a wrong type and a missing required field', () => {
    const deployment = render('production').find((o) => o.metadata.name === 'payments-api')!;
    const typo = structuredClone(deployment);
    typo.spec.template.spec.containers[0].readinessProbes =
      typo.spec.template.spec.containers[0].readinessProbe;
    expect(validateStrict(typo).join()).to.contain(
      '.spec.template.spec.containers[0].readinessProbes: unknown field',
    );
    const wrongType = structuredClone(deployment);
    wrongType.spec.replicas = 'two';
    expect(validateStrict(wrongType)).to.not.be.empty;
    const scaled = structuredClone(render('production').find((o) => o.kind === 'ScaledObject')!);
    scaled.spec.triggers[0].authRef = scaled.spec.triggers[0].authenticationRef;
    expect(validateStrict(scaled).join()).to.contain('authRef: unknown field');
    const cluster = structuredClone(render('production').find((o) => o.kind === 'Cluster')!);
    delete cluster.spec.instances;
    expect(validateStrict(cluster)).to.not.be.empty;
    const rabbit = structuredClone(render('production').find((o) => o.kind === 'RabbitmqCluster')!);
    rabbit.spec.replica = 3;
    rabbit.spec.resources.limit = { memory: '1Gi' };
    expect(validateStrict(rabbit).join())
      .to.contain('.spec.replica: unknown field')
      .and.contain('.spec.resources.limit: unknown field');
  });

  it('docker-compose runs every service on its own database after its migrations, and the devnet profile', () => {
    const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, any>;
    };
    const init = readFileSync(join(root, 'deploy/postgres-init.sql'), 'utf8');
    for (const name of serviceNames) {
      const svc = compose.services[name];
      expect(svc.command).to.deep.equal([`services/${name}/dist/main.js`]);
      const dbName = new URL(svc.environment.DATABASE_URL).pathname.slice(1);
      expect(init, `${name} database`).to.contain(`CREATE DATABASE ${dbName};`);
      const migrate = compose.services[`${name}-migrate`];
      expect(migrate.command).to.deep.equal(['deploy/migrate.mjs', name]);
      expect(migrate.environment.DATABASE_URL).to.equal(svc.environment.DATABASE_URL);
      expect(svc.depends_on[`${name}-migrate`]).to.deep.equal({
        condition: 'service_completed_successfully',
      });
      expect(String(svc.environment.PORT)).to.equal(String(services[name].port));
    }
    expect(compose.services.checkout.command).to.deep.equal(['apps/checkout/server/dist/main.js']);
    // The checkout container reaches the gateway by its compose name (GATEWAY_URL is the browsers'
    // localhost), and passes on the shop origins a developer lists.
    expect(compose.services.checkout.environment.GATEWAY_INTERNAL_URL).to.equal('http://gateway:8080');
    expect(compose.services.checkout.environment.WIDGET_ORIGINS).to.equal('${WIDGET_ORIGINS:-}');
    expect(compose.services.dashboard.command).to.deep.equal(['apps/dashboard/server/dist/main.js']);
    expect(compose.services.gateway.environment.CORS_DASHBOARD_ORIGINS).to.contain('8082');
    // The gateway's port is published directly: no client may name its own address.
    expect(compose.services.gateway.ports).to.deep.equal(['8080:8080']);
    expect(compose.services.gateway.environment).not.to.have.any.keys('TRUST_PROXY', 'TRUSTED_PROXIES');
    // Its limits are shared through the compose file's Redis, which is not published.
    expect(compose.services.gateway.environment.REDIS_URL).to.equal('redis://redis:6379/0');
    expect(compose.services.gateway.depends_on.redis).to.deep.equal({ condition: 'service_healthy' });
    expect(compose.services.redis.ports).to.equal(undefined);
    const devnet = compose.services.devnet;
    expect(devnet.profiles).to.deep.equal(['devnet']);
    expect(devnet.command).to.deep.equal(['deploy/devnet.mjs']);
  });
});

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

const matchesSelector = (
  selector: {
    matchLabels?: Record<string, string>;
    matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
  },
  labels: Record<string, string>,
) =>
  matches(selector.matchLabels ?? {}, labels) &&
  (selector.matchExpressions ?? []).every((e) => {
    if (e.operator === 'In') return e.values!.includes(labels[e.key]!);
    if (e.operator === 'NotIn') return !e.values!.includes(labels[e.key]!);
    if (e.operator === 'Exists') return e.key in labels;
    return !(e.key in labels);
  });

/** The "Network arrows" table of docs/architecture.md, as `from → to:port`. */
const documentedArrows = (): Set<string> => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.split('## Network arrows')[1]!.split('\n## ')[0]!;
  const rows = section
    .split('\n')
    .filter((l) => /^\| [a-z]/.test(l) && !l.startsWith('| from'))
    .map((l) => l.split('|').map((c) => c.trim()));
  expect(rows.length).to.be.greaterThan(5);
  return new Set(rows.map(([, from, to, port]) => `${from} → ${to}:${port}`));
};

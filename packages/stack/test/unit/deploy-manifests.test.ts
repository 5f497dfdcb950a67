import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseAllDocuments, parse } from 'yaml';
import { Namespace, ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';

const root = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const k8sDir = join(root, 'k8s');

const models: Record<string, new (o: any) => { validate(): void }> = {
  Namespace,
  ConfigMap,
  Secret,
  Service,
  Deployment,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  NetworkPolicy,
};

/**
 * kubernetes-models checks types and required fields but lets unknown fields through (a typo like
 * `readinessProbes` would be silently ignored by the cluster): the keys our manifests use are
 * checked against these lists.
 */
const allowed: Record<string, string[]> = {
  doc: ['apiVersion', 'kind', 'metadata', 'spec', 'data', 'stringData', 'type'],
  metadata: ['name', 'namespace', 'labels', 'annotations'],
  deploymentSpec: ['replicas', 'selector', 'strategy', 'template'],
  podSpec: ['terminationGracePeriodSeconds', 'securityContext', 'containers', 'serviceAccountName'],
  container: [
    'name',
    'image',
    'args',
    'command',
    'ports',
    'envFrom',
    'env',
    'readinessProbe',
    'livenessProbe',
    'startupProbe',
    'lifecycle',
    'resources',
    'securityContext',
  ],
  probe: ['httpGet', 'periodSeconds', 'failureThreshold', 'initialDelaySeconds', 'timeoutSeconds'],
  serviceSpec: ['selector', 'ports', 'type'],
};

const checkKeys = (obj: Record<string, unknown> | undefined, list: string, where: string) => {
  for (const key of Object.keys(obj ?? {}))
    expect(allowed[list], `${where}: unknown field "${key}"`).to.include(key);
};

const manifests = () =>
  readdirSync(k8sDir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(k8sDir, f), 'utf8')).map((d) => ({ file: f, doc: d.toJSON() })),
    );

describe('deployment manifests', () => {
  it('every Kubernetes object validates against its schema and uses only known fields', () => {
    const docs = manifests();
    expect(docs.length).to.be.greaterThan(10);
    for (const { file, doc } of docs) {
      const Model = models[doc.kind];
      expect(Model, `${file}: unexpected kind ${doc.kind}`).to.not.equal(undefined);
      expect(() => new Model!(doc).validate(), `${file} ${doc.kind}`).to.not.throw();
      checkKeys(doc, 'doc', file);
      checkKeys(doc.metadata, 'metadata', `${file} metadata`);
      if (doc.kind === 'Deployment') {
        checkKeys(doc.spec, 'deploymentSpec', `${file} spec`);
        checkKeys(doc.spec.template.spec, 'podSpec', `${file} pod spec`);
        for (const c of doc.spec.template.spec.containers) {
          checkKeys(c, 'container', `${file} container`);
          checkKeys(c.readinessProbe, 'probe', `${file} readinessProbe`);
          checkKeys(c.livenessProbe, 'probe', `${file} livenessProbe`);
          expect(c.readinessProbe.httpGet.path).to.equal('/readyz');
          expect(c.livenessProbe.httpGet.path).to.equal('/healthz');
        }
      }
      if (doc.kind === 'Service') checkKeys(doc.spec, 'serviceSpec', `${file} spec`);
    }
  });

  it('the kustomization lists every manifest but the example secret, and services match deployments', () => {
    const kustomization = parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    const files = readdirSync(k8sDir).filter(
      (f) => f.endsWith('.yaml') && !['kustomization.yaml', 'secret.example.yaml'].includes(f),
    );
    expect(kustomization.resources).to.have.members(files);
    const docs = manifests();
    for (const d of docs.filter((x) => x.doc.kind === 'Deployment')) {
      const svc = docs.find((x) => x.doc.kind === 'Service' && x.doc.metadata.name === d.doc.metadata.name);
      expect(svc, `Service for ${d.doc.metadata.name}`).to.not.equal(undefined);
      expect(svc!.doc.spec.selector).to.deep.equal(d.doc.spec.selector.matchLabels);
      const port = d.doc.spec.template.spec.containers[0].ports[0].containerPort;
      const env = d.doc.spec.template.spec.containers[0].env as Array<{ name: string; value?: string }>;
      expect(env.find((e) => e.name === 'PORT')!.value).to.equal(String(port));
    }
  });

  it('every ConfigMap key a container reads exists in the config map', () => {
    const docs = manifests();
    const config = docs.find((d) => d.doc.kind === 'ConfigMap')!.doc.data as Record<string, string>;
    const refs = docs
      .filter((d) => d.doc.kind === 'Deployment')
      .flatMap((d) => d.doc.spec.template.spec.containers as Array<{ env?: any[] }>)
      .flatMap((c) => c.env ?? [])
      .map((e) => e.valueFrom?.configMapKeyRef?.key as string | undefined)
      .filter((k): k is string => k !== undefined);
    expect(refs).to.include('PUBLIC_GATEWAY_URL');
    for (const key of refs) expect(config, `stablepay-config.${key}`).to.have.property(key);
  });

  it('docker-compose gives every service its own database and the entry point that exists', () => {
    const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, any>;
    };
    const init = readFileSync(join(root, 'deploy/postgres-init.sql'), 'utf8');
    for (const [name, svc] of Object.entries(compose.services)) {
      if (!svc.command) continue;
      const entry = svc.command[0] as string;
      expect(readdirSync(join(root, entry.split('/dist/')[0]!, 'src'))).to.include('main.ts');
      // The checkout page is static: the one entry without a database of its own.
      if (name === 'checkout') {
        expect(svc.environment.DATABASE_URL).to.equal(undefined);
        continue;
      }
      const dbName = new URL(svc.environment.DATABASE_URL).pathname.slice(1);
      expect(init, `${name} database`).to.contain(`CREATE DATABASE ${dbName};`);
    }
  });
});

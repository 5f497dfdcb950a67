import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { Affinity } from 'kubernetes-models/v1/Affinity';
import { ResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import { Toleration } from 'kubernetes-models/v1/Toleration';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { ExternalSecret } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1';
import { Cluster, ScheduledBackup } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1';
import type { K8sObject } from './kustomize.js';

type ModelClass = new (data: any) => object;

/** The schema of every kind our overlays render, by `apiVersion/kind`. */
const models: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
  'external-secrets.io/v1beta1/ExternalSecret': ExternalSecret,
  'postgresql.cnpg.io/v1/Cluster': Cluster,
  'postgresql.cnpg.io/v1/ScheduledBackup': ScheduledBackup,
};

/**
 * Validates an object against its kind's schema and refuses fields the schema does not declare.
 *
 * The kubernetes-models validators (compiled from the Kubernetes OpenAPI document and the CRDs)
 * check types, enums and required fields but let unknown fields through. They read every declared
 * property they check, though, so the object is handed to the validator behind a proxy that records
 * each property read: a field present in the object that the validator never read is one the schema
 * does not know (a typo like `readinessProbes`, a field of another API version).
 */
export const validateStrict = (doc: K8sObject): string[] => {
  if (`${doc.apiVersion}/${doc.kind}` === 'rabbitmq.com/v1beta1/RabbitmqCluster')
    return validateRabbitmqCluster(doc);
  const Model = models[`${doc.apiVersion}/${doc.kind}`];
  if (!Model) return [`${doc.apiVersion} ${doc.kind}: no schema known for this kind`];
  return validateModel(Model, doc, '');
};

const validateModel = (Model: ModelClass, data: unknown, at: string): string[] => {
  const model = new Model(data) as { validate(): void };
  const read = new WeakMap<object, Set<string>>();
  const problems: string[] = [];
  try {
    model.validate.call(tracked(model, read));
  } catch (err) {
    problems.push(`${at || '.'}: ${(err as Error).message}`);
  }
  unread(model, read, at, problems);
  return problems;
};

const tracked = (value: unknown, read: WeakMap<object, Set<string>>): any => {
  if (value === null || typeof value !== 'object') return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(target, key)) return v;
      if (!read.has(target)) read.set(target, new Set());
      read.get(target)!.add(key);
      return tracked(v, read);
    },
  });
};

const unread = (value: unknown, read: WeakMap<object, Set<string>>, at: string, problems: string[]): void => {
  if (value === null || typeof value !== 'object') return;
  const seen = read.get(value) ?? new Set<string>();
  for (const [key, child] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${at}[${key}]` : `${at}.${key}`;
    if (!seen.has(key)) problems.push(`${path}: unknown field`);
    else unread(child, read, path, problems);
  }
};

/*
 * RabbitmqCluster: no package of the kubernetes-models family (nor any other on npm) ships the
 * RabbitMQ Cluster Operator's CRD, so the fields of rabbitmq.com/v1beta1 this project may use are
 * declared here from the operator's API reference, with the Kubernetes types they embed checked by
 * kubernetes-models. A field not declared here is refused: add it with its type when it is needed.
 */
type FieldSchema =
  | { type: 'string' | 'integer' | 'boolean' | 'quantity' }
  | { type: 'array'; items: FieldSchema }
  | { type: 'object'; properties: Record<string, FieldSchema>; required?: string[] }
  | { type: 'map' }
  | { type: 'model'; model: ModelClass };

const str = { type: 'string' } as const;
const rabbitmqClusterSpec: FieldSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    image: str,
    imagePullSecrets: { type: 'array', items: { type: 'object', properties: { name: str } } },
    service: { type: 'object', properties: { type: str, annotations: { type: 'map' }, ipFamilyPolicy: str } },
    persistence: { type: 'object', properties: { storageClassName: str, storage: { type: 'quantity' } } },
    resources: { type: 'model', model: ResourceRequirements },
    affinity: { type: 'model', model: Affinity },
    tolerations: { type: 'array', items: { type: 'model', model: Toleration } },
    rabbitmq: {
      type: 'object',
      properties: {
        additionalPlugins: { type: 'array', items: str },
        additionalConfig: str,
        advancedConfig: str,
        envConfig: str,
        erlangInetConfig: str,
      },
    },
    tls: {
      type: 'object',
      properties: { secretName: str, caSecretName: str, disableNonTLSListeners: { type: 'boolean' } },
    },
    skipPostDeploySteps: { type: 'boolean' },
    terminationGracePeriodSeconds: { type: 'integer' },
    delayStartSeconds: { type: 'integer' },
    autoEnableAllFeatureFlags: { type: 'boolean' },
  },
};

const validateRabbitmqCluster = (doc: K8sObject): string[] => {
  const problems: string[] = [];
  const { apiVersion, kind, metadata, spec, ...rest } = doc;
  void apiVersion;
  void kind;
  for (const key of Object.keys(rest)) problems.push(`.${key}: unknown field`);
  checkField(
    {
      type: 'object',
      properties: { name: str, namespace: str, labels: { type: 'map' }, annotations: { type: 'map' } },
      required: ['name'],
    },
    metadata,
    '.metadata',
    problems,
  );
  checkField(rabbitmqClusterSpec, spec ?? {}, '.spec', problems);
  return problems;
};

const checkField = (schema: FieldSchema, value: unknown, at: string, problems: string[]): void => {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') problems.push(`${at}: must be a string`);
      return;
    case 'integer':
      if (!Number.isInteger(value)) problems.push(`${at}: must be an integer`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${at}: must be a boolean`);
      return;
    case 'quantity':
      if (!/^[0-9.]+([KMGTPE]i?|[mkMGTPE])?$/.test(String(value))) problems.push(`${at}: not a quantity`);
      return;
    case 'map':
      if (
        typeof value !== 'object' ||
        value === null ||
        Object.values(value).some((v) => typeof v !== 'string')
      )
        problems.push(`${at}: must be a map of strings`);
      return;
    case 'model':
      problems.push(...validateModel(schema.model, value, at));
      return;
    case 'array':
      if (!Array.isArray(value)) problems.push(`${at}: must be an array`);
      else value.forEach((item, i) => checkField(schema.items, item, `${at}[${i}]`, problems));
      return;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push(`${at}: must be an object`);
        return;
      }
      for (const key of schema.required ?? []) if (!(key in value)) problems.push(`${at}.${key}: required`);
      for (const [key, child] of Object.entries(value)) {
        const field = schema.properties[key];
        if (!field) problems.push(`${at}.${key}: unknown field`);
        else checkField(field, child, `${at}.${key}`, problems);
      }
    }
  }
};

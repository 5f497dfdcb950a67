import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** A rendered Kubernetes object (plain JSON). */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: any;
};

interface Kustomization {
  namespace?: string;
  resources?: string[];
  patches?: Array<{ path?: string; patch?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

/**
 * The subset of kustomize our overlays use, so the suite renders them without a kustomize binary:
 * resources (files and directories), strategic-merge patches (files or inline, `$patch: delete`),
 * `replicas`, `images` and `namespace`. Anything else in a kustomization is refused, so a new
 * feature cannot be silently ignored; where kubectl is installed the test compares the output with
 * `kubectl kustomize`.
 */
export const renderKustomization = (dir: string): K8sObject[] => {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization &
    Record<string, unknown>;
  const known = ['apiVersion', 'kind', 'namespace', 'resources', 'patches', 'replicas', 'images'];
  for (const key of Object.keys(k))
    if (!known.includes(key)) throw new Error(`${dir}: kustomization field ${key} is not supported`);
  let objects: K8sObject[] = [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    if (statSync(path).isDirectory()) objects.push(...renderKustomization(path));
    else objects.push(...readDocuments(path));
  }
  for (const p of k.patches ?? []) {
    const docs = p.path
      ? readDocuments(resolve(dir, p.path))
      : parseAllDocuments(p.patch!).map((d) => d.toJSON() as K8sObject);
    for (const patch of docs) objects = applyPatch(objects, patch, dir);
  }
  for (const r of k.replicas ?? []) {
    const target = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === r.name);
    if (!target) throw new Error(`${dir}: replicas for unknown Deployment ${r.name}`);
    target.spec.replicas = r.count;
  }
  for (const image of k.images ?? []) for (const o of objects) retag(o, image);
  if (k.namespace)
    for (const o of objects) if (!clusterScoped.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
};

const clusterScoped = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'ClusterSecretStore']);

export const readDocuments = (file: string): K8sObject[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJSON() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);

const applyPatch = (objects: K8sObject[], patch: K8sObject, dir: string): K8sObject[] => {
  const index = objects.findIndex(
    (o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name && group(o) === group(patch),
  );
  if (index < 0) throw new Error(`${dir}: patch target ${patch.kind}/${patch.metadata.name} not found`);
  if (patch.$patch === 'delete') return objects.filter((_, i) => i !== index);
  objects[index] = strategicMerge(objects[index], patch) as K8sObject;
  return objects;
};

const group = (o: K8sObject) => (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '');

/** The merge keys of the lists our patches touch (Kubernetes' strategic-merge-patch keys). */
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

const isObject = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const strategicMerge = (base: unknown, patch: unknown, key?: string): unknown => {
  if (Array.isArray(patch)) {
    const mergeKey = key ? mergeKeys[key] : undefined;
    if (!mergeKey || !Array.isArray(base)) return structuredClone(patch);
    // As kubectl orders them: the patch's items (merged into their base item), then the others.
    const patched = patch.map((item) => {
      const original = base.find((b) => b[mergeKey] === item[mergeKey]);
      return original ? strategicMerge(original, item) : structuredClone(item);
    });
    const keys = new Set(patch.map((item) => item[mergeKey]));
    return [...patched, ...base.filter((b) => !keys.has(b[mergeKey]))];
  }
  if (!isObject(patch) || !isObject(base)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = strategicMerge(base[k], v, k);
  }
  return out;
};

const retag = (o: unknown, image: { name: string; newName?: string; newTag?: string }): void => {
  if (Array.isArray(o)) return o.forEach((x) => retag(x, image));
  if (!isObject(o)) return;
  for (const [k, v] of Object.entries(o)) {
    if ((k === 'containers' || k === 'initContainers') && Array.isArray(v)) {
      for (const c of v) {
        const [name, tag] = String(c.image).split(':');
        if (name !== image.name) continue;
        c.image = `${image.newName ?? name}${image.newTag ? `:${image.newTag}` : tag ? `:${tag}` : ''}`;
      }
    } else retag(v, image);
  }
};

export const overlayDir = (root: string, name: string) => join(root, 'k8s', 'overlays', name);
export const baseDir = (root: string) => join(dirname(overlayDir(root, 'x')), '..', 'base');

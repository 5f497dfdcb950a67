import { z } from 'zod';
import { ErrorDetail, ErrorEnvelope } from '../shared/envelope.js';
import { Currency } from '../shared/money.js';
import { BlockchainName } from '../shared/scalars.js';
import * as http from '../http-schemas.js';
import * as webhookPayloads from '../webhooks/payloads.js';

export type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
const INPUT_SUFFIX = 'Input';

/**
 * Every exported, PascalCase zod schema of the HTTP contracts becomes a named component, so that
 * operations and nested fields reference the same definitions the services validate with.
 */
function buildRegistry() {
  const registry = z.registry<{ id: string }>();
  const named: Record<string, unknown> = {
    Currency,
    BlockchainName,
    ErrorDetail,
    ErrorEnvelope,
    ...http,
    ...webhookPayloads,
  };
  for (const name of Object.keys(named).sort()) {
    const value = named[name];
    if (!/^[A-Z]/.test(name) || !(value instanceof z.ZodType) || registry.has(value)) continue;
    registry.add(value, { id: name });
  }
  return registry;
}

/** Named schemas: request side (io input) and response side (io output). */
export interface ComponentSet {
  /** components.schemas of the document */
  schemas: Record<string, JsonSchema>;
  /** $ref for a schema used as a request body / parameter source */
  inputRef(schema: z.ZodType): string;
  /** $ref for a schema used as a response body */
  outputRef(schema: z.ZodType): string;
  /** resolved input JSON Schema of a named schema (for query/path parameter expansion) */
  inputSchema(schema: z.ZodType): JsonSchema;
}

export function buildComponents(): ComponentSet {
  const registry = buildRegistry();
  const convert = (io: 'input' | 'output') =>
    z.toJSONSchema(registry, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      uri: (id) => `${REF_PREFIX}${id}`,
      override: ({ jsonSchema }) => {
        // Responses may gain fields over time; requests ignore unknown fields. Neither is closed.
        if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      },
    }).schemas as Record<string, JsonSchema>;

  const output = mapValues(convert('output'), clean);
  const input = mapValues(convert('input'), clean);

  // A schema needs a separate request-side component when its input shape differs (defaults,
  // transforms, coercion) or when it references one that does.
  const needsInput = new Set(Object.keys(input).filter((id) => stable(input[id]) !== stable(output[id])));
  for (let grew = true; grew;) {
    grew = false;
    for (const id of Object.keys(input)) {
      if (needsInput.has(id)) continue;
      if (refsOf(input[id]!).some((ref) => needsInput.has(ref))) {
        needsInput.add(id);
        grew = true;
      }
    }
  }
  const toInputRefs = (node: unknown): unknown =>
    rewriteRefs(node, (id) =>
      needsInput.has(id) ? `${REF_PREFIX}${id}${INPUT_SUFFIX}` : `${REF_PREFIX}${id}`,
    );

  const schemas: Record<string, JsonSchema> = { ...output };
  for (const id of needsInput) schemas[`${id}${INPUT_SUFFIX}`] = toInputRefs(input[id]) as JsonSchema;

  const idOf = (schema: z.ZodType): string => {
    const meta = registry.get(schema);
    if (!meta) throw new Error('schema used by a route is not an exported, named contract schema');
    return meta.id;
  };
  return {
    schemas,
    inputRef: (schema) => {
      const id = idOf(schema);
      return `${REF_PREFIX}${id}${needsInput.has(id) ? INPUT_SUFFIX : ''}`;
    },
    outputRef: (schema) => `${REF_PREFIX}${idOf(schema)}`,
    inputSchema: (schema) => toInputRefs(input[idOf(schema)]) as JsonSchema,
  };
}

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

function stable(value: unknown): string {
  return JSON.stringify(value);
}

function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsOf(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
        found.push(value.slice(REF_PREFIX.length));
      } else refsOf(value, found);
    }
  }
  return found;
}

function rewriteRefs(node: unknown, to: (id: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, to));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) =>
        key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)
          ? [key, to(value.slice(REF_PREFIX.length))]
          : [key, rewriteRefs(value, to)],
      ),
    );
  }
  return node;
}

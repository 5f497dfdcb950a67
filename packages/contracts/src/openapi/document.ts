import type { z } from 'zod';
import type { RouteSpec } from '../catalogue/route-spec.js';
import { routes, toOpenApiPath } from '../catalogue/routes.js';
import { HttpHeaders } from '../shared/headers.js';
import {
  WEBHOOK_BODY_SCHEMAS,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_NAMES,
  WebhookHeaders,
} from '../webhooks/payloads.js';
import { exampleOf } from '../examples/index.js';
import { webhookBodyExamples } from '../examples/webhooks.js';
import { type ComponentSet, type JsonSchema, buildComponents } from './components.js';
import { errorResponses, errorResponsesFor } from './errors.js';
import { commonHeaders, deprecationHeaders, replayHeaders, responseHeaders } from './headers.js';
import { pruneUnusedComponents } from './prune.js';
import { tagDescriptions } from './tags.js';
import { API_VERSION, VersionHeaders, deprecationOf } from './versioning.js';

export interface OpenApiOptions {
  serverUrl?: string;
  title?: string;
  version?: string;
}

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, unknown>>;
};

/**
 * Security requirements of a route. The scope an API key needs is named by `x-required-scope` and
 * the description, not in the requirement: OpenAPI 3.1 allows role names there, but linters and
 * generators still read a non-empty list on an API key scheme as an undefined OAuth scope.
 */
const securityOf = (route: RouteSpec): Array<Record<string, string[]>> => {
  switch (route.auth) {
    case 'key':
      return [{ ApiKeyAuth: [] }];
    case 'jwt':
      return [{ BearerAuth: [] }];
    case 'jwt_or_key':
      return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
    default:
      return [];
  }
};

const CREDENTIALS: Record<RouteSpec['auth'], string> = {
  public: 'No credential: callable from a browser.',
  key: 'An API key (`X-API-Key`).',
  jwt: "A dashboard user's bearer token.",
  jwt_or_key: "An API key or a dashboard user's bearer token.",
  service: 'A service token (internal).',
};

const IDEMPOTENT_POST =
  'Safe to retry with an `Idempotency-Key`: a repeat within 24 h replays the first answer with ' +
  '`Idempotent-Replayed: true`, a repeat while the first still runs is 409, and the same key with ' +
  'another body is 422.';

/** The operation's description: what it needs first, then what it does, then how to retry it. */
const describe = (route: RouteSpec): string => {
  const deprecation = deprecationOf(route.operationId);
  const parts = [
    route.planned ? `**Not available yet**: answers 501 (${route.planned}).` : undefined,
    deprecation && !deprecation.bodyField
      ? `**Deprecated** since ${deprecation.since}, sunset ${deprecation.sunset}: use ${deprecation.replacement}. ` +
        'Answers carry `Deprecation` and `Sunset`.'
      : undefined,
    route.scope ? `**API key scope:** \`${route.scope}\`.` : `**Credential:** ${CREDENTIALS[route.auth]}`,
    route.description,
    deprecation?.bodyField
      ? `\`${deprecation.bodyField}\` is deprecated since ${deprecation.since} (sunset ` +
        `${deprecation.sunset}; use ${deprecation.replacement}): a request that sends it is answered ` +
        'with `Deprecation` and `Sunset`.'
      : undefined,
    route.method === 'post' ? IDEMPOTENT_POST : undefined,
  ].filter(Boolean);
  return parts.join('\n\n');
};

const INFO_DESCRIPTION =
  'USDC and EURC payments on EVM chains: payments, hosted checkout, refunds, invoices, wallet ' +
  'balance, API keys and signed webhooks. Every response uses `{success, data, message?}` or ' +
  '`{success: false, error, details}`.\n\n' +
  `**Versioning.** Every answer names the API version in \`${VersionHeaders.Version}\` ` +
  `(this document: \`${API_VERSION}\`). Within a version changes are additive only (new ` +
  'operations, optional request fields, response fields); anything breaking ships under a new ' +
  'version. A deprecated operation or field keeps working until its sunset and says so with ' +
  '`Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers.';

/** OpenAPI 3.1 description of every route, generated from the same zod schemas the services use. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const components = buildComponents();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(route, components);
  }
  return pruneUnusedComponents({
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Stablecoin Payments API',
      version: options.version ?? API_VERSION,
      description: INFO_DESCRIPTION,
      contact: { name: 'Stablepay maintainers' },
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    // Without a known address, the server is the one that served the document (a relative URL).
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [...new Set(routes.flatMap((r) => r.tags))].map((name) => ({
      name,
      ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}),
    })),
    paths,
    webhooks: webhooks(components),
    components: {
      schemas: components.schemas,
      responses: errorResponses,
      headers: responseHeaders,
      parameters: {
        IdempotencyKey: {
          name: HttpHeaders.IdempotencyKey,
          in: 'header',
          required: false,
          description:
            'Repeating a POST with the same key (within 24 h) replays the first answer instead of ' +
            'acting twice. Use one new key per intended action, e.g. a UUID.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        MfaCode: {
          name: HttpHeaders.MfaCode,
          in: 'header',
          required: false,
          description:
            'A current authenticator code: required on step-up operations when two-factor sign-in is on.',
          schema: { type: 'string', pattern: '^\\d{6}$' },
        },
      },
      securitySchemes: {
        ApiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: HttpHeaders.ApiKey,
          description:
            'A key holds scopes; each operation names the one it needs (`x-required-scope`). A key ' +
            'without it is refused with 403, `details[].code` `insufficient_scope`. Keys created without ' +
            '`scopes` hold every scope but `withdrawals:write`.',
        },
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  });
}

const isDeprecatedWhole = (route: RouteSpec): boolean => {
  const deprecation = deprecationOf(route.operationId);
  return deprecation !== undefined && !deprecation.bodyField;
};

/** The body schema with its deprecated field, if the operation has one, marked `deprecated`. */
const markDeprecatedField = (route: RouteSpec, schema: JsonSchema): JsonSchema => {
  const field = deprecationOf(route.operationId)?.bodyField;
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!field || !properties?.[field]) return schema;
  return { ...schema, properties: { ...properties, [field]: { ...properties[field], deprecated: true } } };
};

/** Headers of a success answer: the common ones, replays on POST, deprecation where it applies. */
const successHeaders = (route: RouteSpec) => ({
  ...commonHeaders,
  ...(route.method === 'post' ? replayHeaders : {}),
  ...(deprecationOf(route.operationId) ? deprecationHeaders : {}),
});

function operation(route: RouteSpec, components: ComponentSet): Record<string, unknown> {
  const example = exampleOf(route);
  const parameters: unknown[] = [
    ...parametersOf(route.request?.params, 'path', components, example?.request?.params),
    ...parametersOf(route.request?.query, 'query', components, example?.request?.query),
  ];
  if (route.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.stepUp) parameters.push({ $ref: '#/components/parameters/MfaCode' });
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      headers: successHeaders(route),
      ...responseContent(response, components, example?.responses[Number(status)]),
    };
  }
  Object.assign(responses, errorResponsesFor(route));
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: describe(route),
    tags: [...route.tags],
    security: securityOf(route),
    ...(parameters.length ? { parameters } : {}),
    ...(route.request?.body ? { requestBody: requestBody(route, route.request.body, components) } : {}),
    responses,
    ...(route.deprecated || isDeprecatedWhole(route) ? { deprecated: true } : {}),
    'x-service': route.service,
    ...(route.extension ? { 'x-extension': true } : {}),
    ...(route.stepUp ? { 'x-step-up': true } : {}),
    ...(route.planned ? { 'x-status': 'planned' } : {}),
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
  };
}

/**
 * The body as the client sends it (zod's input: fields with a default are optional), inlined rather
 * than referenced: generators such as openapi-typescript make a field with a default required in a
 * named schema, but keep it optional in an operation's own request body.
 */
function requestBody(route: RouteSpec, body: z.ZodType, components: ComponentSet) {
  const json = { schema: markDeprecatedField(route, components.inputSchema(body)) };
  const example = exampleOf(route);
  const value = example?.request?.body;
  return {
    required: true,
    content: { 'application/json': value === undefined ? json : { ...json, example: value } },
  };
}

function responseContent(
  response: RouteSpec['responses'][number],
  components: ComponentSet,
  example: unknown,
) {
  const contentType = response.contentType ?? 'application/json';
  const binary = response.binaryTypes ?? (contentType === 'application/pdf' ? [contentType] : []);
  if (binary.length) {
    return {
      content: Object.fromEntries(
        binary.map((type) => [
          type,
          { schema: { type: 'string', format: 'binary', contentMediaType: type } },
        ]),
      ),
    };
  }
  if (!response.schema) return {};
  const alternatives = Object.fromEntries(
    (response.textAlternatives ?? []).map((type) => [type, { schema: { type: 'string' } }]),
  );
  return {
    content: {
      [contentType]: {
        schema: { $ref: components.outputRef(response.schema) },
        ...(example === undefined ? {} : { example }),
      },
      ...alternatives,
    },
  };
}

function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
  components: ComponentSet,
  examples: Record<string, unknown> = {},
) {
  if (!schema) return [];
  const json = components.inputSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(examples[name] === undefined ? {} : { example: examples[name] }),
    };
  });
}

function webhooks(components: ComponentSet): Record<string, unknown> {
  const headers = [
    {
      name: WebhookHeaders.Signature,
      description: '`sha256=` + hex HMAC-SHA256(secret, `<timestamp>.<body>`)',
    },
    { name: WebhookHeaders.Event, description: 'Event name' },
    { name: WebhookHeaders.Timestamp, description: 'Unix seconds at sending' },
    { name: WebhookHeaders.Test, description: '`true` for test deliveries, otherwise `false`' },
    { name: WebhookHeaders.EventId, description: 'Stable event id, identical on every retry (dedupe key)' },
  ].map((h) => ({
    ...h,
    in: 'header',
    required: h.name !== WebhookHeaders.EventId,
    schema: { type: 'string' },
  }));
  return Object.fromEntries(
    WEBHOOK_EVENT_NAMES.map((event) => {
      const body = WEBHOOK_BODY_SCHEMAS[event];
      const example = webhookBodyExamples[event];
      return [
        event,
        {
          post: {
            operationId: `webhook_${event.replaceAll('.', '_')}`,
            summary: WEBHOOK_EVENT_DESCRIPTIONS[event],
            description:
              `Sent to every enabled endpoint subscribed to \`${event}\`. Verify the signature before ` +
              'trusting the body, and dedupe on the event id: a delivery is retried until a 2xx answer.',
            // The sender authenticates by the signature header, not by a credential of ours.
            security: [],
            parameters: headers,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { $ref: components.outputRef(body) },
                  ...(example === undefined ? {} : { example }),
                },
              },
            },
            responses: { '200': { description: 'Any 2xx within 5 seconds acknowledges the delivery' } },
          },
        },
      ];
    }),
  );
}

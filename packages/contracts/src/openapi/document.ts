import type { z } from 'zod';
import type { RouteSpec } from '../catalogue/route-spec.js';
import { routes, toOpenApiPath } from '../catalogue/routes.js';
import { HttpHeaders } from '../shared/headers.js';
import {
  PaymentWebhookEnvelope,
  RefundWebhookEnvelope,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_NAMES,
  WebhookHeaders,
} from '../webhooks/payloads.js';
import { type ComponentSet, type JsonSchema, buildComponents } from './components.js';
import { errorResponses, errorResponsesFor } from './errors.js';

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
 * Security requirements of a route. OpenAPI 3.1 lets a requirement of any scheme list role names:
 * an API key's lists the one scope the route needs, so generators and viewers show it.
 */
const securityOf = (route: RouteSpec): Array<Record<string, string[]>> => {
  const key = { ApiKeyAuth: route.scope ? [route.scope] : [] };
  switch (route.auth) {
    case 'key':
      return [key];
    case 'jwt':
      return [{ BearerAuth: [] }];
    case 'jwt_or_key':
      return [key, { BearerAuth: [] }];
    default:
      return [];
  }
};

/** The operation's description, with what it needs said first. */
const describe = (route: RouteSpec): string | undefined => {
  const parts = [
    route.planned ? `**Not available yet**: answers 501 (${route.planned}).` : undefined,
    route.scope ? `**API key scope:** \`${route.scope}\`.` : undefined,
    route.description,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
};

/** OpenAPI 3.1 description of every route, generated from the same zod schemas the services use. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const components = buildComponents();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operation(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Stablecoin Payments API',
      version: options.version ?? '1.0.0',
      description:
        'USDC and EURC payments on EVM chains: payments, hosted checkout, refunds, invoices, wallet ' +
        'balance, API keys and signed webhooks. Every response uses `{success, data, message?}` or ' +
        '`{success: false, error, details}`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...new Set(routes.flatMap((r) => r.tags))].map((name) => ({ name })),
    paths,
    webhooks: webhooks(components),
    components: {
      schemas: components.schemas,
      responses: errorResponses,
      parameters: {
        IdempotencyKey: {
          name: HttpHeaders.IdempotencyKey,
          in: 'header',
          required: false,
          description: 'Repeating a POST with the same key replays the first answer instead of acting twice.',
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
  };
}

function operation(route: RouteSpec, components: ComponentSet): Record<string, unknown> {
  const parameters: unknown[] = [
    ...parametersOf(route.request?.params, 'path', components),
    ...parametersOf(route.request?.query, 'query', components),
  ];
  if (route.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.stepUp) parameters.push({ $ref: '#/components/parameters/MfaCode' });
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = { description: response.description, ...responseContent(response, components) };
  }
  Object.assign(responses, errorResponsesFor(route));
  if (route.planned) {
    responses['501'] = { $ref: '#/components/responses/NotImplemented' };
  }
  const description = describe(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [...route.tags],
    security: securityOf(route),
    ...(parameters.length ? { parameters } : {}),
    ...(route.request?.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: components.inputRef(route.request.body) } } },
          },
        }
      : {}),
    responses,
    ...(route.deprecated ? { deprecated: true } : {}),
    'x-service': route.service,
    ...(route.extension ? { 'x-extension': true } : {}),
    ...(route.stepUp ? { 'x-step-up': true } : {}),
    ...(route.planned ? { 'x-status': 'planned' } : {}),
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
  };
}

function responseContent(response: RouteSpec['responses'][number], components: ComponentSet) {
  const contentType = response.contentType ?? 'application/json';
  if (contentType === 'application/pdf') {
    return {
      content: {
        [contentType]: { schema: { type: 'string', format: 'binary', contentMediaType: contentType } },
      },
    };
  }
  if (!response.schema) return {};
  const alternatives = Object.fromEntries(
    (response.textAlternatives ?? []).map((type) => [type, { schema: { type: 'string' } }]),
  );
  return {
    content: { [contentType]: { schema: { $ref: components.outputRef(response.schema) } }, ...alternatives },
  };
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query', components: ComponentSet) {
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
      const body = event.startsWith('payment.') ? PaymentWebhookEnvelope : RefundWebhookEnvelope;
      return [
        event,
        {
          post: {
            operationId: `webhook_${event.replace('.', '_')}`,
            summary: WEBHOOK_EVENT_DESCRIPTIONS[event],
            parameters: headers,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: components.outputRef(body) } } },
            },
            responses: { '200': { description: 'Any 2xx within 5 seconds acknowledges the delivery' } },
          },
        },
      ];
    }),
  );
}

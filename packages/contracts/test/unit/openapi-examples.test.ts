import { expect } from 'chai';
import type { z } from 'zod';
import { buildOpenApiDocument, routes, toOpenApiPath } from '../../src/index.js';
import { exampleOf } from '../../src/examples/index.js';

/** zod's issues as `path: message` lines, so a failure says which field drifted. */
const problems = (schema: z.ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('OpenAPI examples', () => {
  const doc = buildOpenApiDocument();

  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    describe(where, () => {
      const example = exampleOf(route);

      it('has a request and a response example that its own schemas accept', () => {
        expect(example, 'example').to.not.equal(undefined);
        const { body, query, params } = route.request ?? {};
        if (body) expect(problems(body, example!.request?.body), 'body').to.deep.equal([]);
        if (query) expect(problems(query, example!.request?.query ?? {}), 'query').to.deep.equal([]);
        if (params) expect(problems(params, example!.request?.params), 'params').to.deep.equal([]);
        for (const [status, response] of Object.entries(route.responses)) {
          if (!response.schema) continue;
          const value = example!.responses[Number(status)];
          expect(problems(response.schema, value), `${status} answer`).to.deep.equal([]);
          // What the API sends is what the schema produces: nothing stripped, defaulted or converted.
          expect(response.schema.parse(value), `${status} answer as sent`).to.deep.equal(value);
        }
      });

      it('shows them in the document', () => {
        const op = doc.paths[toOpenApiPath(route.path)]![route.method]!;
        const responses = op.responses as Record<string, { content?: Record<string, { example?: unknown }> }>;
        for (const [status, response] of Object.entries(route.responses)) {
          if (!response.schema) continue;
          const json = responses[status]!.content![response.contentType ?? 'application/json']!;
          expect(json.example, `${status} example`).to.deep.equal(example!.responses[Number(status)]);
        }
        if (route.request?.body) {
          const body = op.requestBody as { content: Record<string, { example?: unknown }> };
          expect(body.content['application/json']!.example).to.deep.equal(example!.request!.body);
        }
      });
    });
  }
});

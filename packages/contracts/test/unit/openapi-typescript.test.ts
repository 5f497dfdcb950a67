import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildOpenApiDocument } from '../../src/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The JSON body of the README's `curl … /checkout/sessions … -d '<body>'` call. */
function readmeCheckoutBody(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const call = /curl[^\n]*\/checkout\/sessions[^\n]*\\\n\s*-d '([^']+)'/.exec(readme);
  expect(call, "README's checkout-session call").to.not.equal(null);
  return call![1]!;
}

/** tsc's diagnostics for the given files, strict, as text. */
function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('a client generated with openapi-typescript (its defaults)', function () {
  this.timeout(60_000);
  let dir: string;
  let types: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-ts-'));
    types = astToString(
      await openapiTS(JSON.parse(JSON.stringify(buildOpenApiDocument())), { silent: true }),
    );
    writeFileSync(join(dir, 'api.d.ts'), types);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("compiles the README's checkout-session call, and one that leaves out every defaulted field", () => {
    const file = join(dir, 'call.ts');
    writeFileSync(
      file,
      [
        "import type { paths } from './api.js';",
        "type Body = paths['/checkout/sessions']['post']['requestBody']['content']['application/json'];",
        `export const readme: Body = ${readmeCheckoutBody()};`,
        "export const minimal: Body = { amount: '25.00', return_url: 'https://shop.example/thanks' };",
        '',
      ].join('\n'),
    );
    expect(typeErrors([file])).to.deep.equal([]);
  });

  it('still refuses a call without the required return_url', () => {
    const file = join(dir, 'wrong.ts');
    writeFileSync(
      file,
      [
        "import type { paths } from './api.js';",
        "type Body = paths['/checkout/sessions']['post']['requestBody']['content']['application/json'];",
        "export const wrong: Body = { amount: '25.00' };",
        '',
      ].join('\n'),
    );
    expect(typeErrors([file]).join('\n')).to.contain('return_url');
  });

  it('makes the defaulted request fields optional', () => {
    expect(types).to.match(/\bcurrency\?: /);
    expect(types).to.match(/\bexpires_in\?: number/);
  });
});

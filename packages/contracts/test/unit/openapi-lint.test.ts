import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../src/index.js';

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name);

/** Both CLIs run offline: no telemetry, no update check, nothing fetched (the rulesets are built in). */
const offline = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
};

interface SpectralFinding {
  code: string;
  message: string;
  path: string[];
}

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
}

/** A CLI that finds problems exits non-zero; its findings are on stdout either way. */
const stdoutOf = async (file: string, args: string[]): Promise<string> => {
  try {
    return (await run(file, args, { cwd: repoRoot, env: offline, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout } = err as { stdout?: string };
    if (!stdout) throw err;
    return stdout;
  }
};

describe('OpenAPI document lint (Spectral spectral:oas, Redocly recommended)', function () {
  this.timeout(180_000);
  let dir: string;
  let file: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('Spectral reports nothing', async () => {
    const out = await stdoutOf(bin('spectral'), [
      'lint',
      file,
      '--ruleset',
      join(repoRoot, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    const findings = (out.trim() ? JSON.parse(out) : []) as SpectralFinding[];
    const said = findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`);
    expect(said).to.deep.equal([]);
  });

  it('Redocly reports no error', async () => {
    const out = await stdoutOf(bin('redocly'), [
      'lint',
      file,
      '--config',
      join(repoRoot, 'redocly.yaml'),
      '--format',
      'json',
    ]);
    const { problems } = JSON.parse(out) as { problems: RedoclyProblem[] };
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
    expect(errors).to.deep.equal([]);
    for (const warning of problems.filter((p) => p.severity === 'warn'))
      console.log(`      redocly warning ${warning.ruleId}: ${warning.message}`);
  });
});

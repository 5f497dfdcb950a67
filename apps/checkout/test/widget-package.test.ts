import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

/**
 * The widget as merchants install it from npm: the packed tarball holds the module, its types and
 * the README only, installs into a project of its own, and exports the documented API.
 */
describe('the @stablepay/widget package', function () {
  this.timeout(120_000);
  const pkgDir = fileURLToPath(new URL('../widget/', import.meta.url));
  let work: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'sp-widget-pkg-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs the module, its types and README, installs offline and exports open, bind and the event', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: pkgDir, encoding: 'utf8' }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((f) => f.path).sort();
    expect(files).to.deep.equal(['README.md', 'dist/loader.d.ts', 'dist/widget.mjs', 'package.json']);

    const project = join(work, 'shop');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'shop', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--offline', join(work, packed[0]!.filename)],
      { cwd: project, stdio: 'pipe' },
    );
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const w = await import('@stablepay/widget'); console.log(JSON.stringify({ open: typeof w.open, bind: typeof w.bind, event: w.RESULT_EVENT }))",
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).to.deep.equal({ open: 'function', bind: 'function', event: 'stablepay:result' });
    const types = readFileSync(join(project, 'node_modules/@stablepay/widget/dist/loader.d.ts'), 'utf8');
    expect(types)
      .to.contain('export interface WidgetOptions')
      .and.contain('merchantId?: string')
      .and.contain('sessionId?: string');
  });
});

// Builds the package: the types from the contracts' schemas, then ESM and declarations in dist/.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const sdk = fileURLToPath(new URL('..', import.meta.url));
const run = (args) => execFileSync(process.execPath, args, { cwd: sdk, stdio: 'inherit' });

run(['--import', 'tsx', 'scripts/generate-types.ts']);
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
run([fileURLToPath(import.meta.resolve('typescript/bin/tsc')), '-p', 'tsconfig.json']);

// Type-checks the tests (the build's tsconfig.json files compile `src` only). By default: the root's
// tsconfig.test.json, one program for the benches, the fault suite and every workspace on the shared
// Node options (the services, most packages, the stack), so the libraries' types are read once
// rather than once per workspace; then `tsc -p <workspace>/tsconfig.test.json` for each workspace the
// root does not include (the browser apps and the SDK, whose options differ). A workspace named on
// the command line is checked on its own config. Run after `npm run build`: the tests import the
// other workspaces through their built declarations.
//   node scripts/typecheck.mjs [workspace ...]   # default: the root, then the workspaces it leaves out
import { execFile } from 'node:child_process';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** A workspace's own test config, and those of its sub-projects (an app's `server/`). */
const configsOf = (workspace) =>
  [join(root, workspace), join(root, workspace, 'server')]
    .map((dir) => join(dir, 'tsconfig.test.json'))
    .filter((file) => existsSync(file));

const workspaces = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
const rootConfig = join(root, 'tsconfig.test.json');
/** Workspaces whose tests the root config's program already holds (its `include` names `<ws>/test`). */
const inRoot = new Set(
  (JSON.parse(readFileSync(rootConfig, 'utf8')).include ?? []).flatMap((entry) =>
    entry.endsWith('/test') ? globSync(entry.slice(0, -'/test'.length), { cwd: root }) : [],
  ),
);
const asked = process.argv.slice(2);
const configs = asked.length
  ? asked.flatMap(configsOf)
  : [rootConfig, ...workspaces.filter((ws) => !inRoot.has(ws)).flatMap(configsOf)];

const check = async (config) => {
  const started = Date.now();
  const name = relative(root, config);
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', config], { cwd: root, maxBuffer: 64 << 20 });
    console.log(`typecheck ${name}: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (err) {
    console.error(`typecheck ${name}: failed\n${err.stdout || err.message}`);
    return false;
  }
};

// Two at a time at most: each tsc is single-threaded and memory-hungry.
const queue = [...configs];
const results = [];
const worker = async () => {
  for (let config = queue.shift(); config; config = queue.shift()) results.push(await check(config));
};
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
if (configs.length === 0) console.log('typecheck: no workspace has a tsconfig.test.json');
if (results.includes(false)) process.exit(1);

// Type-checks the tests: `tsc -p <workspace>/tsconfig.test.json` for every workspace that has one
// (the build's tsconfig.json files compile `src` only), and the root's for the benches and the fault
// suite. Run after `npm run build`: the tests import
// the other workspaces through their built declarations.
//   node scripts/typecheck.mjs [workspace ...]   # default: the root and every workspace with one
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
const asked = process.argv.slice(2);
const configs = asked.length
  ? asked.flatMap(configsOf)
  : [join(root, 'tsconfig.test.json'), ...workspaces.flatMap(configsOf)].filter((f) => existsSync(f));

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

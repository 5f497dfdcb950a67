// `npm start`: the whole stack on embedded defaults, run from the TypeScript sources (the `source`
// export condition, transpiled on load), so a fresh clone starts without compiling the monorepo.
// The web pages are built with Vite when their build is missing or older than their sources, side
// by side with the stack's start (their servers answer 503 until then), and the devnet's contracts
// are compiled once. `npm run build` and `npm test` still type-check and compile everything.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const newest = (path) => {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
};

const run = (args, cwd) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });

const vite = join(root, 'node_modules/vite/bin/vite.js');
const pages = [
  { dir: 'apps/checkout', configs: ['vite.config.ts', 'vite.widget.config.ts'] },
  { dir: 'apps/dashboard', configs: ['vite.config.ts'] },
];
const builds = pages.map(async ({ dir, configs }) => {
  const app = join(root, dir);
  const sources = Math.max(
    ...['src', 'public', 'index.html', 'embed.html', ...configs].map((f) => newest(join(app, f))),
  );
  if (newest(join(app, 'dist/index.html')) >= sources) return;
  // One after the other: a config's build empties what the previous one wrote only for the first.
  for (const config of configs) await run([vite, 'build', '--logLevel', 'warn', '-c', config], app);
  console.log(`[start] built ${dir}`);
});

// A no-op while the artifacts match the contracts' sources (the script keeps their hash).
await run([join(root, 'packages/devnet/scripts/compile-contracts.mjs')], join(root, 'packages/devnet'));

const stack = spawn(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', join(root, 'apps/stack/src/main.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stack.kill(signal));
stack.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
Promise.all(builds).catch((err) => {
  console.error(`[start] a page could not be built: ${err.message}`);
});

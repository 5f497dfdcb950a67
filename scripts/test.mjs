// `npm test`: lint (eslint, prettier, import cycles) beside the build and the tests' type-check, then
// mocha on the given files. Lint needs no build, so it runs while the build does; the type-check
// reads the built declarations, so it follows the build. A failed lint or type-check still lets the
// suite run (its findings are printed first) and fails the run at the end; a failed build stops it.
//   node scripts/test.mjs <mocha arguments...>
import { spawn } from 'node:child_process';

const steps = [];

/** Runs an npm script; `quiet` keeps its output until it ends, so parallel steps do not interleave. */
const run = (name, args, { quiet = false } = {}) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', args, {
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      steps.push({ name, ok: code === 0, seconds });
      if (output) process.stdout.write(`\n[test] ${name}:\n${output}`);
      console.log(
        `[test] ${name} ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s`,
      );
      resolve(code === 0);
    });
  });

const summary = () =>
  console.log(
    `[test] ${steps.map((s) => `${s.name} ${s.ok ? 'ok' : 'FAILED'} ${s.seconds.toFixed(0)} s`).join(', ')}`,
  );

const started = Date.now();
const [lint, built] = await Promise.all([
  run('lint', ['run', 'lint', '--silent'], { quiet: true }),
  run('build', ['run', 'build', '--silent']),
]);
const typed = built && (await run('typecheck', ['run', 'typecheck', '--silent']));
if (!built) {
  summary();
  process.exit(1);
}
const tested = await run('mocha', ['exec', '--', 'mocha', ...process.argv.slice(2)]);
summary();
console.log(`[test] total ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(lint && typed && tested ? 0 : 1);

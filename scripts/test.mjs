// `npm test`: lint (eslint, prettier, import cycles) beside the build, then the tests' type-check
// beside mocha. Lint needs no build, so it runs while the build does; the type-check and the tests
// read the built code, so they follow the build. A failed lint or type-check still lets the suite run
// (its findings are printed) and fails the run at the end; a failed build stops it.
//
// The suite runs in lanes: the test files are cut into groups (a test folder, or a slice of a large
// one), and each lane runs one mocha process per group, the longest groups first. Most of a suite's
// time is spent waiting on PostgreSQL, RabbitMQ, anvil and Chromium, so lanes overlap that waiting;
// every group has its own RabbitMQ vhost, databases and ports already, as a mocha run does.
// Each group's output is printed whole when it ends, so lanes do not interleave.
//   node scripts/test.mjs <test file globs...>
//   TEST_LANES=1 npm test      # one lane (the whole suite in order, as one mocha run per group)
import { spawn } from 'node:child_process';
import { existsSync, globSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

const steps = [];

/** Runs a command; its output is kept until it ends, so parallel steps do not interleave. */
const exec = (command, args, env = process.env) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });

/** Runs an npm script as one step of the run, and prints its output and time when it ends. */
const run = async (name, args) => {
  const started = Date.now();
  const { code, output } = await exec('npm', args);
  const seconds = (Date.now() - started) / 1000;
  steps.push({ name, ok: code === 0, seconds });
  if (output) process.stdout.write(`\n[test] ${name}:\n${output}`);
  console.log(`[test] ${name} ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s`);
  return code === 0;
};

// ---- the suite's groups --------------------------------------------------------------------

/**
 * A folder with more files than this is cut into slices, so no one group holds a lane for long. A
 * `unit` folder is not: its tests take milliseconds, and each group costs a mocha start and a vhost.
 */
const SLICE = 4;
const durationsFile = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'stablepay',
  'test-durations.json',
);
const readDurations = () => {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8'));
  } catch {
    return {};
  }
};

/** Test files by folder, a large folder cut into slices of consecutive files. */
const groupsOf = (patterns) => {
  const files = [...new Set(patterns.flatMap((p) => globSync(p)))].sort();
  const byFolder = new Map();
  for (const file of files) byFolder.set(dirname(file), [...(byFolder.get(dirname(file)) ?? []), file]);
  const groups = [];
  for (const [folder, inFolder] of byFolder) {
    const slices = folder.endsWith('/unit') ? 1 : Math.ceil(inFolder.length / SLICE);
    for (let i = 0; i < slices; i++) {
      const part = inFolder.filter((_, n) => n % slices === i);
      groups.push({ name: slices > 1 ? `${folder} (${i + 1}/${slices})` : folder, files: part });
    }
  }
  return groups;
};

/**
 * How long a group is expected to take: the time it took last run on this machine, else a guess
 * (browser suites and end-to-end runs are the long ones). Only the order depends on it.
 */
const expectedSeconds = (group, durations) =>
  durations[group.name] ??
  group.files.length * (/apps\/(checkout|dashboard|stack)\//.test(group.name) ? 40 : 10);

/** mocha's own entry point, run by this Node (npx would start another Node first). */
const MOCHA = 'node_modules/mocha/bin/mocha.js';

/** Counts from mocha's summary lines ("  12 passing (3s)", "  1 failing", "  2 pending"). */
const countsOf = (output) => {
  const count = (word) => Number(output.match(new RegExp(`^\\s+(\\d+) ${word}`, 'm'))?.[1] ?? 0);
  return { passing: count('passing'), failing: count('failing'), pending: count('pending') };
};

/**
 * TEST_LANES, or two more than the cores, as far as PostgreSQL's connection limit allows: an
 * end-to-end group runs the whole stack, up to about 80 connections at once. Groups spend much of
 * their time waiting on the servers and the chains; on two cores a fourth lane took a fresh clone's
 * suite from 741 to 637 s (the processor then idle 4 % of the run).
 */
const laneCount = async () => {
  if (process.env.TEST_LANES) return Math.max(1, Number(process.env.TEST_LANES));
  const wanted = availableParallelism() + 2;
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const limit = Number((await client.query('show max_connections')).rows[0].max_connections);
    const lanes = Math.max(1, Math.min(wanted, Math.floor(limit / 100)));
    if (lanes < wanted)
      console.log(
        `[test] ${lanes} lane(s): PostgreSQL allows ${limit} connections, ${wanted} lanes want ${wanted * 100}`,
      );
    return lanes;
  } catch {
    return wanted;
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** A RabbitMQ vhost for one group (test/global-setup.ts makes its own when run without one). */
const newVhost = async () => {
  const { createTestVhost } = await import('@stablepay/platform/testing');
  return createTestVhost(process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
};

const runSuite = async (patterns) => {
  const started = Date.now();
  const durations = readDurations();
  const queue = groupsOf(patterns).sort(
    (a, b) => expectedSeconds(b, durations) - expectedSeconds(a, durations),
  );
  const lanes = await laneCount();
  const results = [];
  const drops = [];
  const lane = async () => {
    // Each group gets a fresh vhost; the lane makes the next one while a group runs and deletes the
    // last one after, so a group never waits on rabbitmqctl (two calls to make, one to delete).
    let next = queue.length > 0 ? newVhost() : Promise.resolve(undefined);
    for (let group = queue.shift(); group; group = queue.shift()) {
      const vhost = await next;
      next = queue.length > 0 ? newVhost() : Promise.resolve(undefined);
      const env = vhost
        ? { ...process.env, TEST_AMQP_URL: vhost.url, TEST_AMQP_VHOST_GIVEN: vhost.vhost }
        : process.env;
      const groupStarted = Date.now();
      const { code, output } = await exec(process.execPath, [MOCHA, ...group.files], env);
      if (vhost) drops.push(vhost.drop());
      const seconds = (Date.now() - groupStarted) / 1000;
      const counts = countsOf(output);
      results.push({ ...group, ok: code === 0, seconds, ...counts, output });
      durations[group.name] = Math.round(seconds);
      process.stdout.write(`\n[test] ${group.name}:\n${output}`);
      console.log(
        `[test] ${group.name} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s: ` +
          `${counts.passing} passing, ${counts.failing} failing, ${counts.pending} pending`,
      );
    }
    // Made for a group that another lane took.
    const unused = await next;
    if (unused) drops.push(unused.drop());
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  await Promise.all(drops);
  try {
    mkdirSync(dirname(durationsFile), { recursive: true });
    writeFileSync(durationsFile, JSON.stringify(durations, null, 2));
  } catch {
    // Only the next run's order depends on it.
  }
  const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
  const failed = results.filter((r) => !r.ok);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `\n[test] mocha: ${results.length} groups in ${lanes} lanes: ${total('passing')} passing, ` +
      `${total('failing')} failing, ${total('pending')} pending`,
  );
  // The failures again, where a reader of the log's end sees them: mocha's report from its
  // "N failing" line on, else (a crash before the report) the group's last lines.
  for (const r of failed) {
    const at = r.output.search(/^\s+\d+ failing/m);
    const why = at >= 0 ? r.output.slice(at) : r.output.split('\n').slice(-40).join('\n');
    console.log(`\n[test] FAILED: ${r.name} (${r.files.join(' ')})\n${why.trimEnd().slice(-8000)}`);
  }
  steps.push({ name: 'mocha', ok: failed.length === 0, seconds });
  return failed.length === 0;
};

// ---- the run ---------------------------------------------------------------------------------

const summary = () =>
  console.log(
    `[test] ${steps.map((s) => `${s.name} ${s.ok ? 'ok' : 'FAILED'} ${s.seconds.toFixed(0)} s`).join(', ')}`,
  );

const started = Date.now();
const [lint, built] = await Promise.all([
  run('lint', ['run', 'lint', '--silent']),
  run('build', ['run', 'build', '--silent']),
]);
if (!built) {
  summary();
  process.exit(1);
}
if (!existsSync(MOCHA)) console.log('[test] mocha is not installed: run npm ci');
const [typed, tested] = await Promise.all([
  run('typecheck', ['run', 'typecheck', '--silent']),
  runSuite(process.argv.slice(2)),
]);
summary();
console.log(`[test] total ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(lint && typed && tested ? 0 : 1);

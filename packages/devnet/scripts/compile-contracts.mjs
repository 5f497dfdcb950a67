#!/usr/bin/env node
// Compiles packages/devnet/contracts/**/*.sol into packages/devnet/artifacts/<Contract>.json ({abi, bytecode}).
// Runs at build time only; the devnet loads the artifacts at start. A hash of the sources, the compiler
// and OpenZeppelin versions, the settings and this script is kept next to the artifacts, so a build
// with nothing changed returns at once.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const contractsDir = join(packageDir, 'contracts');
const artifactsDir = join(packageDir, 'artifacts');
const hashFile = join(artifactsDir, '.build-hash');
const ozRoot = dirname(require.resolve('@openzeppelin/contracts/package.json'));
const ozVersion = JSON.parse(readFileSync(join(ozRoot, 'package.json'), 'utf8')).version;
const solcVersion = JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')).version;

// cancun: supported by anvil and by every chain the registry names; solc 0.8.37 would default to osaka.
const settings = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

// Sources in subfolders too (contracts/cctp/): named by their path, so relative imports resolve.
const sourceNames = readdirSync(contractsDir, { recursive: true })
  .map((name) => String(name).split(sep).join('/'))
  .filter((name) => name.endsWith('.sol'))
  .sort();
const sources = Object.fromEntries(
  sourceNames.map((name) => [
    `contracts/${name}`,
    { content: readFileSync(join(contractsDir, name), 'utf8') },
  ]),
);

const hash = createHash('sha256')
  .update(
    JSON.stringify({
      solcVersion,
      ozVersion,
      settings,
      sources,
      script: readFileSync(fileURLToPath(import.meta.url), 'utf8'),
    }),
  )
  .digest('hex');
const previous = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : '';
if (previous === hash) {
  process.stdout.write(`devnet contracts up to date (${sourceNames.length} sources)\n`);
  process.exit(0);
}

const findImports = (path) => {
  const prefix = '@openzeppelin/contracts/';
  if (!path.startsWith(prefix)) return { error: `import not found: ${path}` };
  try {
    return { contents: readFileSync(join(ozRoot, path.slice(prefix.length)), 'utf8') };
  } catch {
    return { error: `import not found: ${path}` };
  }
};

const started = Date.now();
const solc = require('solc');
const output = JSON.parse(
  solc.compile(JSON.stringify({ language: 'Solidity', sources, settings }), { import: findImports }),
);

const problems = output.errors ?? [];
for (const problem of problems) console.error(problem.formattedMessage ?? problem.message);
if (problems.some((problem) => problem.severity === 'error')) {
  console.error('devnet contracts: compilation failed');
  process.exit(1);
}

rmSync(artifactsDir, { recursive: true, force: true });
mkdirSync(artifactsDir, { recursive: true });
const written = [];
for (const sourceName of Object.keys(sources)) {
  for (const [contractName, contract] of Object.entries(output.contracts[sourceName] ?? {})) {
    const bytecode = contract.evm.bytecode.object;
    // Abstract contracts and interfaces have no bytecode; libraries of internal functions no ABI.
    if (!bytecode || contract.abi.length === 0) continue;
    if (written.includes(contractName)) {
      console.error(`devnet contracts: two contracts named ${contractName}; artifacts are keyed by name`);
      process.exit(1);
    }
    const artifact = {
      contractName,
      sourceName,
      compiler: `solc-${solcVersion}`,
      abi: contract.abi,
      bytecode: `0x${bytecode}`,
    };
    writeFileSync(join(artifactsDir, `${contractName}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    written.push(contractName);
  }
}
writeFileSync(hashFile, `${hash}\n`);
process.stdout.write(`devnet contracts compiled in ${Date.now() - started} ms: ${written.join(', ')}\n`);

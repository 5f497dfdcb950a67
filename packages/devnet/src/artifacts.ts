import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonFragment } from 'ethers';

export interface ContractArtifact {
  contractName: string;
  abi: JsonFragment[];
  /** Creation bytecode, 0x-prefixed. */
  bytecode: string;
}

/** Written by scripts/compile-contracts.mjs (`npm run build -w @stablepay/devnet`); beside src/ and dist/. */
const artifactsDir = new URL('../artifacts/', import.meta.url);
const cache = new Map<string, ContractArtifact>();

export const loadArtifact = (contractName: string): ContractArtifact => {
  const cached = cache.get(contractName);
  if (cached) return cached;
  const file = fileURLToPath(new URL(`${contractName}.json`, artifactsDir));
  let artifact: ContractArtifact;
  try {
    artifact = JSON.parse(readFileSync(file, 'utf8')) as ContractArtifact;
  } catch (error) {
    throw new Error(
      `Devnet contract ${contractName} is not compiled (${file}: ${(error as Error).message}). ` +
        'Run `npm run build -w @stablepay/devnet` (or `npm run build`).',
    );
  }
  cache.set(contractName, artifact);
  return artifact;
};

/** The ABI of the devnet stablecoin (the FiatToken v2.2 functions and events the platform uses). */
export const fiatTokenAbi = (): JsonFragment[] => loadArtifact('FiatToken').abi;

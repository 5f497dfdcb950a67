import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CctpContracts } from './cctp/deploy.js';

/**
 * What the devnet has done to the chains whose state lives in a state directory: where it deployed
 * the tokens and the CCTP contracts, and whom the faucet has funded. Together with anvil's state files
 * it lets a restart reuse the same contracts instead of deploying new ones, and fund only accounts it
 * has not funded yet.
 */
export interface ChainRecord {
  chainId: number;
  tokens: Partial<Record<'USDC' | 'EURC', string>>;
  /** Absent in a manifest written before the devnet had CCTP. */
  cctp?: CctpContracts;
  funded: string[];
}

export interface DevnetManifest {
  version: 1;
  chains: Record<string, ChainRecord>;
}

export const emptyManifest = (): DevnetManifest => ({ version: 1, chains: {} });

export const readManifest = (file: string): DevnetManifest => {
  if (!existsSync(file)) return emptyManifest();
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as DevnetManifest;
  if (manifest.version !== 1) throw new Error(`Unsupported devnet manifest version in ${file}`);
  return manifest;
};

/** Written to a temporary file and renamed, so a crash leaves the old manifest or the new one. */
export const writeManifest = (file: string, manifest: DevnetManifest): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
};

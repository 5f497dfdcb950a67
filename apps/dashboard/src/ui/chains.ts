import type { Session } from '../api/session.js';
import type { PublicChain } from './explorer.js';

let cached: Promise<PublicChain[]> | undefined;

/** The deployment's chains (GET /chains, public), read once per page load. */
export const loadChains = (session: Session): Promise<PublicChain[]> => {
  cached ??= session
    .open('getPublicChains')
    .then((r) => r.data.chains)
    .catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
  return cached;
};

export const chainIdOf = (chains: PublicChain[], name: string | null | undefined): number | undefined =>
  chains.find((c) => c.name === name)?.chainId;

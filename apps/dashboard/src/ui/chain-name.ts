import { blockchainDisplayName } from '@stablepay/contracts/chains/explorer-links';
import type { Messages, Translate } from '../i18n.js';

/**
 * A chain as people call it ("Base", "Polygon PoS"): the API names a chain by its ticker-like id
 * (`BASE`, `MATIC`), which a merchant should not have to decode.
 */
export const chainName = (name: string | null | undefined): string =>
  name ? blockchainDisplayName(name) : '—';

const BRIDGES: Record<string, keyof Messages> = {
  bridge_kit: 'bridgeKit',
  cctp_relayer: 'bridgeRelayer',
};

/** How a cross-chain payment was carried, in words ("Bridge Kit", not `bridge_kit`). */
export const bridgeName = (t: Translate, provider: string): string => {
  const key = BRIDGES[provider];
  return key ? t(key) : provider.replace(/_/g, ' ');
};

/** A value the API spells as an identifier (`wrong_token`), as words ("Wrong token"). */
export const inWords = (value: string): string => {
  const spaced = value.replace(/_/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

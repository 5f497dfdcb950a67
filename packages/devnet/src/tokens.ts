import type { Currency } from '@stablepay/contracts';
import { AbiCoder, concat, getCreate2Address, id, keccak256 } from 'ethers';
import { loadArtifact } from './artifacts.js';

export interface TokenDefinition {
  name: string;
  symbol: Currency;
  /** ISO 4217 code the token stands for. */
  currency: string;
}

/** Names and symbols as Circle's tokens report them (name() is part of the EIP-712 domain). */
export const DEVNET_TOKENS: Readonly<Record<Currency, TokenDefinition>> = {
  USDC: { name: 'USD Coin', symbol: 'USDC', currency: 'USD' },
  EURC: { name: 'Euro Coin', symbol: 'EURC', currency: 'EUR' },
};

/** The CREATE2 factory anvil installs at genesis (the one known as Arachnid's deterministic deployer). */
export const CREATE2_FACTORY = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

export const tokenInitCode = (token: TokenDefinition, owner: string): string => {
  const args = AbiCoder.defaultAbiCoder().encode(
    ['string', 'string', 'string', 'address'],
    [token.name, token.symbol, token.currency, owner],
  );
  return concat([loadArtifact('FiatToken').bytecode, args]);
};

/*
 * The chain id is part of the salt: every chain gets its own token addresses, as on mainnet, so that
 * code which uses one chain's address on another fails on the devnet too instead of passing by luck.
 */
export const tokenSalt = (symbol: Currency, chainId: number): string =>
  id(`stablepay-devnet:${symbol}:${chainId}`);

export const predictTokenAddress = (token: TokenDefinition, owner: string, chainId: number): string =>
  getCreate2Address(
    CREATE2_FACTORY,
    tokenSalt(token.symbol, chainId),
    keccak256(tokenInitCode(token, owner)),
  );

/** Calldata for the factory: salt followed by init code. */
export const tokenDeployData = (token: TokenDefinition, owner: string, chainId: number): string =>
  concat([tokenSalt(token.symbol, chainId), tokenInitCode(token, owner)]);

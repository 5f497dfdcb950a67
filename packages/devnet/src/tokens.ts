import type { Currency } from '@stablepay/contracts';
import { AbiCoder, Interface, MaxUint256, concat, getCreate2Address, id, keccak256 } from 'ethers';
import { devnetAccount, type DevnetAccount } from './accounts.js';
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

export const TOKEN_DECIMALS = 6;

/** The CREATE2 factory anvil installs at genesis (the one known as Arachnid's deterministic deployer). */
export const CREATE2_FACTORY = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/*
 * Who holds which role of every devnet token (USDC and EURC, on every chain):
 *   deployer (index 0)        owner, master minter, pauser and blacklister; also a minter with an
 *                             unlimited allowance, which the faucet mints from
 *   proxy admin (index 3000)  admin of every FiatTokenProxy: upgradeTo, changeAdmin. It has to be
 *                             another account than the deployer, because a proxy's admin cannot
 *                             call the token through it. It receives no gas from the faucet.
 * Tests pause and blacklist with the deployer's key; an upgrade needs the proxy admin's.
 */
export const PROXY_ADMIN_INDEX = 3000;

export const proxyAdminAccount = (): DevnetAccount => devnetAccount(PROXY_ADMIN_INDEX);

export interface TokenRoles {
  owner: string;
  masterMinter: string;
  pauser: string;
  blacklister: string;
  proxyAdmin: string;
}

export const tokenRoles = (deployer: string): TokenRoles => ({
  owner: deployer,
  masterMinter: deployer,
  pauser: deployer,
  blacklister: deployer,
  proxyAdmin: proxyAdminAccount().address,
});

/** Deployments are sent with explicit gas limits (with interval mining, before the previous is mined). */
export const TOKEN_GAS_LIMITS = {
  implementation: 6_000_000n,
  proxy: 1_500_000n,
  configureMinter: 100_000n,
} as const;

let tokenInterface: Interface | undefined;
const fiatToken = (): Interface => (tokenInterface ??= new Interface(loadArtifact('FiatToken').abi));

/*
 * The chain id is part of every salt: every chain gets its own addresses, as on mainnet, so that code
 * which uses one chain's address on another fails on the devnet too instead of passing by luck.
 */
const implementationSalt = (chainId: number): string => id(`stablepay-devnet:FiatToken:${chainId}`);

export const tokenSalt = (symbol: Currency, chainId: number): string =>
  id(`stablepay-devnet:${symbol}:${chainId}`);

/** The one FiatToken implementation of a chain, shared by its USDC and EURC proxies. */
export const predictImplementationAddress = (chainId: number): string =>
  getCreate2Address(
    CREATE2_FACTORY,
    implementationSalt(chainId),
    keccak256(loadArtifact('FiatToken').bytecode),
  );

/** `initialize(...)` of FiatToken, run by the proxy's constructor. */
export const tokenInitializeData = (token: TokenDefinition, roles: TokenRoles): string =>
  fiatToken().encodeFunctionData('initialize', [
    token.name,
    token.symbol,
    token.currency,
    TOKEN_DECIMALS,
    roles.masterMinter,
    roles.pauser,
    roles.blacklister,
    roles.owner,
  ]);

const proxyInitCode = (token: TokenDefinition, deployer: string, chainId: number): string => {
  const roles = tokenRoles(deployer);
  const args = AbiCoder.defaultAbiCoder().encode(
    ['address', 'address', 'bytes'],
    [predictImplementationAddress(chainId), roles.proxyAdmin, tokenInitializeData(token, roles)],
  );
  return concat([loadArtifact('FiatTokenProxy').bytecode, args]);
};

/** The token's address: its proxy's, which stays when the implementation is upgraded. */
export const predictTokenAddress = (token: TokenDefinition, deployer: string, chainId: number): string =>
  getCreate2Address(
    CREATE2_FACTORY,
    tokenSalt(token.symbol, chainId),
    keccak256(proxyInitCode(token, deployer, chainId)),
  );

/** Calldata for the factory: salt followed by init code. */
export const implementationDeployData = (chainId: number): string =>
  concat([implementationSalt(chainId), loadArtifact('FiatToken').bytecode]);

export const tokenDeployData = (token: TokenDefinition, deployer: string, chainId: number): string =>
  concat([tokenSalt(token.symbol, chainId), proxyInitCode(token, deployer, chainId)]);

/** The master minter (the deployer) makes itself a minter that never runs out, for the faucet. */
export const faucetMinterData = (deployer: string): string =>
  fiatToken().encodeFunctionData('configureMinter', [deployer, MaxUint256]);

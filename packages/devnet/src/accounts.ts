import { BLOCKCHAIN_NAMES, type BlockchainName } from '@stablepay/contracts';
import { HDNodeWallet } from 'ethers';

/**
 * The well-known test mnemonic of Hardhat and anvil. Every key derived from it is public: anyone can
 * sign with it on any chain. It exists so that devnet accounts are the same on every machine and after
 * every restart; never send anything of value to these addresses on a real network.
 */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevnetAccount {
  address: string;
  privateKey: string;
}

/*
 * Derivation indexes (m/44'/60'/0'/0/<index>):
 *   0              deployer: owner and unlimited minter of every devnet token
 *   1 .. 999       customers (1 = the first customer, the same account as anvil's "Account #1")
 *   1000 + n       relayer of the chain whose name is BLOCKCHAIN_NAMES[n] (gas only)
 *   2000 and up    free for other devnet roles (attesters, forwarding relayer, ...)
 */
export const DEPLOYER_INDEX = 0;
export const MAX_CUSTOMERS = 999;
const RELAYER_BASE_INDEX = 1000;

// Derivation costs milliseconds per key in JavaScript; keys never change, so each is derived once.
let root: HDNodeWallet | undefined;
const derived = new Map<number, DevnetAccount>();

/** The account at a derivation index of the devnet mnemonic. */
export const devnetAccount = (index: number): DevnetAccount => {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`Invalid derivation index ${index}`);
  let account = derived.get(index);
  if (!account) {
    root ??= HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, "m/44'/60'/0'/0");
    const wallet = root.deriveChild(index);
    account = { address: wallet.address, privateKey: wallet.privateKey };
    derived.set(index, account);
  }
  return { ...account };
};

export const deployerAccount = (): DevnetAccount => devnetAccount(DEPLOYER_INDEX);

/** Customer n (0-based) of the faucet. */
export const customerAccount = (n: number): DevnetAccount => {
  if (n >= MAX_CUSTOMERS) throw new RangeError(`At most ${MAX_CUSTOMERS} devnet customers`);
  return devnetAccount(1 + n);
};

/** The gas-paying relayer of one chain; keyed by chain name so that it survives a change of chain list. */
export const relayerAccount = (chain: BlockchainName): DevnetAccount =>
  devnetAccount(RELAYER_BASE_INDEX + BLOCKCHAIN_NAMES.indexOf(chain));

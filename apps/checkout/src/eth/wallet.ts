import type { Hex } from './abi.js';
import { chainLabel } from '../chains.js';

/** EIP-1193: what an injected wallet (window.ethereum) offers. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

/** What went wrong, in the terms the customer can act on. */
export type WalletProblem = 'rejected' | 'unsupported_chain' | 'no_account' | 'no_gas' | 'failed';

export class WalletError extends Error {
  constructor(
    readonly problem: WalletProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

const codeOf = (err: unknown): number | undefined => {
  const e = err as { code?: unknown; data?: { originalError?: { code?: unknown } } } | undefined;
  const code = e?.code ?? e?.data?.originalError?.code;
  return typeof code === 'number' ? code : undefined;
};

/**
 * EIP-1193 4001 is the user saying no; 4902 a chain the wallet does not know, 4901 one it is not
 * connected to. Wallets report a balance short of the gas only in words (geth's and anvil's
 * "insufficient funds for gas * price + value" or "... for intrinsic transaction cost"), and a
 * typed-data domain of another chain as MetaMask's "must match the active chainId".
 */
export const walletError = (err: unknown): WalletError => {
  if (err instanceof WalletError) return err;
  const code = codeOf(err);
  const message = (err as Error | undefined)?.message ?? String(err);
  if (code === 4001 || /user (rejected|denied)/i.test(message)) return new WalletError('rejected', message);
  if (code === 4902 || code === 4901 || /must match the active chain ?id/i.test(message))
    return new WalletError('unsupported_chain', message);
  if (/insufficient funds/i.test(message)) return new WalletError('no_gas', message);
  return new WalletError('failed', message);
};

export const injectedProvider = (): Eip1193Provider | undefined =>
  (globalThis as { ethereum?: Eip1193Provider }).ethereum;

const call = async <T>(provider: Eip1193Provider, method: string, params?: unknown[]): Promise<T> => {
  try {
    return (await provider.request(params ? { method, params } : { method })) as T;
  } catch (err) {
    throw walletError(err);
  }
};

export const requestAccount = async (provider: Eip1193Provider): Promise<string> => {
  const accounts = await call<string[]>(provider, 'eth_requestAccounts');
  if (!accounts?.[0]) throw new WalletError('no_account', 'The wallet shared no account');
  return accounts[0].toLowerCase();
};

/** The account the wallet already shares with this page, without asking (a reload mid-payment). */
export const currentAccount = async (provider: Eip1193Provider): Promise<string | undefined> => {
  const accounts = await call<string[]>(provider, 'eth_accounts').catch(() => []);
  return accounts?.[0]?.toLowerCase();
};

export const walletChainId = async (provider: Eip1193Provider): Promise<number> =>
  Number(BigInt(await call<string>(provider, 'eth_chainId')));

export interface ChainToAdd {
  chainId: number;
  name: string;
  displayName?: string;
  rpcUrls: readonly string[];
}

/** Switches the wallet to the chain, adding it first when the wallet does not know it (4902). */
export const switchChain = async (provider: Eip1193Provider, chain: ChainToAdd): Promise<void> => {
  if ((await walletChainId(provider)) === chain.chainId) return;
  const chainId = `0x${chain.chainId.toString(16)}`;
  try {
    await call(provider, 'wallet_switchEthereumChain', [{ chainId }]);
  } catch (err) {
    if (!(err instanceof WalletError) || err.problem !== 'unsupported_chain') throw err;
    await call(provider, 'wallet_addEthereumChain', [
      {
        chainId,
        chainName: chainLabel(chain),
        rpcUrls: chain.rpcUrls,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
    ]);
  }
  if ((await walletChainId(provider)) !== chain.chainId)
    throw new WalletError('unsupported_chain', `The wallet stayed off chain ${chain.chainId}`);
};

export const sendTransaction = (
  provider: Eip1193Provider,
  tx: { from: string; to: string; data: Hex },
): Promise<string> => call<string>(provider, 'eth_sendTransaction', [tx]);

export const signTypedData = (
  provider: Eip1193Provider,
  account: string,
  typedData: object,
): Promise<string> => call<string>(provider, 'eth_signTypedData_v4', [account, JSON.stringify(typedData)]);

import type { BrowserContext, Frame, Page } from 'playwright-core';
import { JsonRpcProvider, Wallet, type TransactionRequest } from 'ethers';

export interface WalletChain {
  chainId: number;
  rpcUrl: string;
}

export interface TestWallet {
  address: string;
  /** The chain the wallet is on (a switch made by the page persists across reloads, as in a real wallet). */
  chainId: number;
  /** Every request the page made, in order (method names). */
  calls: string[];
  /** The next request of this method is declined as the user would (EIP-1193 4001). */
  rejectNext(method: string): void;
  /**
   * Runs after a transaction is broadcast and before the page gets its hash back: a test can reload
   * the page there, as a customer whose browser closed while the wallet was sending.
   */
  afterSend?: (hash: string, page: Page | Frame) => Promise<void>;
  /**
   * Changes a transaction before the wallet signs it, as a customer who edits what the page asked
   * for in the wallet's confirmation (another amount, say); the page learns only the hash.
   */
  alterSend?: (tx: TransactionRequest) => TransactionRequest;
  /** Refuse wallet_switchEthereumChain, as a wallet that stays on its network. */
  refuseSwitch: boolean;
  sent: string[];
  /** Every typed-data document the page asked the wallet to sign (eth_signTypedData_v4), parsed. */
  signed: any[];
  /**
   * Runs while the wallet's signature prompt is open, before it answers: a test can look at the
   * page as the customer sees it then.
   */
  beforeSign?: (typed: any, page: Page | Frame) => Promise<void>;
  /** Changes what the wallet signs, as a wallet that signs something other than what it was shown. */
  alterSign?: (typed: any) => any;
}

/**
 * An EIP-1193 provider injected into every page of the context (window.ethereum, iframes included),
 * backed by a devnet key held on the test's side: the page asks, the test's ethers Wallet signs and
 * sends the real transaction to anvil, as a browser wallet extension would.
 */
export const injectWallet = async (
  context: BrowserContext,
  privateKey: string,
  chains: WalletChain[],
  initialChainId = chains[0]!.chainId,
): Promise<TestWallet> => {
  const providers = new Map(
    chains.map((c) => [
      c.chainId,
      new JsonRpcProvider(c.rpcUrl, c.chainId, { staticNetwork: true, cacheTimeout: -1 }),
    ]),
  );
  const signer = new Wallet(privateKey);
  const rejections = new Set<string>();
  const state: TestWallet = {
    address: signer.address.toLowerCase(),
    chainId: initialChainId,
    calls: [],
    sent: [],
    signed: [],
    refuseSwitch: false,
    rejectNext: (method) => rejections.add(method),
  };
  const provider = () => providers.get(state.chainId)!;
  const userRejected = () => ({ error: { code: 4001, message: 'User rejected the request.' } });

  await context.exposeBinding(
    '__testWallet',
    async (source, method: string, params: any[]): Promise<{ result?: unknown; error?: unknown }> => {
      state.calls.push(method);
      if (rejections.delete(method)) return userRejected();
      try {
        switch (method) {
          case 'eth_requestAccounts':
          case 'eth_accounts':
            return { result: [signer.address] };
          case 'eth_chainId':
            return { result: `0x${state.chainId.toString(16)}` };
          case 'wallet_switchEthereumChain': {
            const wanted = Number(BigInt(params[0].chainId));
            if (state.refuseSwitch) return userRejected();
            if (!providers.has(wanted)) return { error: { code: 4902, message: 'Unrecognized chain ID' } };
            state.chainId = wanted;
            return { result: null };
          }
          case 'eth_signTypedData_v4': {
            const asked = JSON.parse(params[1]);
            state.signed.push(asked);
            if (state.beforeSign) await state.beforeSign(asked, source.frame);
            const typed = state.alterSign ? state.alterSign(structuredClone(asked)) : asked;
            const { EIP712Domain: _domain, ...types } = typed.types;
            return { result: await signer.signTypedData(typed.domain, types, typed.message) };
          }
          case 'eth_sendTransaction': {
            const asked = params[0] as TransactionRequest;
            const tx = state.alterSend ? state.alterSend(asked) : asked;
            const wallet = signer.connect(provider());
            const sent = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ?? 0 });
            state.sent.push(sent.hash);
            if (state.afterSend) await state.afterSend(sent.hash, source.frame);
            return { result: sent.hash };
          }
          default:
            return { result: await provider().send(method, params ?? []) };
        }
      } catch (err) {
        return { error: { code: -32603, message: (err as Error).message } };
      }
    },
  );

  await context.addInitScript(() => {
    const call = (window as any).__testWallet as (
      m: string,
      p: unknown,
    ) => Promise<{ result?: unknown; error?: any }>;
    const listeners: Record<string, Array<(...a: unknown[]) => void>> = {};
    (window as any).ethereum = {
      isTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = await call(method, params ?? []);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        if (method === 'wallet_switchEthereumChain')
          for (const l of listeners.chainChanged ?? []) l((params as any)[0].chainId);
        return answer.result;
      },
      on(event: string, listener: (...a: unknown[]) => void) {
        (listeners[event] ??= []).push(listener);
      },
      removeListener(event: string, listener: (...a: unknown[]) => void) {
        listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener);
      },
    };
  });
  return state;
};

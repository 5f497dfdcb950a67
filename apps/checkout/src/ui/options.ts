import type { Currency, PublicChains } from '@stablepay/contracts';
import { tokenBalance } from '../eth/rpc.js';
import type { PaymentTarget, PayOption } from '../pay/types.js';

/**
 * Every way the account could pay: the session's token on each chain that has it (straight to the
 * merchant on the merchant's chain), and USDC from any other CCTP chain to the merchant's, bridged.
 * EURC is same-chain only. Balances are read from each chain's public RPC, whatever network the
 * wallet is on; a chain that does not answer is left out rather than failing the page.
 */
export const readOptions = async (
  chains: PublicChains,
  target: PaymentTarget,
  account: string,
): Promise<PayOption[]> => {
  const token: Currency = target.currency;
  const candidates = chains.chains.flatMap((chain) => {
    const address = chain.tokens[token];
    if (!address) return [];
    const same = chain.chainId === target.merchantChain.chainId;
    const bridgeable =
      token === 'USDC' && !!chains.attestationUrl && !!chain.cctp && !!target.merchantChain.cctp;
    if (!same && !bridgeable) return [];
    return [{ chain, token, crossChain: !same, address }];
  });
  const read = await Promise.all(
    candidates.map(async (c) => {
      try {
        const balance = await tokenBalance(c.chain.rpcUrls, c.address, account);
        return { chain: c.chain, token: c.token, crossChain: c.crossChain, balance };
      } catch {
        return undefined;
      }
    }),
  );
  return read
    .filter((o): o is PayOption => o !== undefined)
    .sort((a, b) => Number(a.crossChain) - Number(b.crossChain) || (b.balance > a.balance ? 1 : -1));
};

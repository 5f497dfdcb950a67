import { Contract, JsonRpcProvider, Network, Wallet, parseUnits, type TransactionResponse } from 'ethers';
import type { Currency } from '@stablepay/contracts';
import type { Devnet, DevnetAccount, DevnetChain } from '@stablepay/devnet';

const ERC20 = [
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
];

/** 6-decimal base units of a decimal string. */
export const units = (amount: string): bigint => parseUnits(amount, 6);

/** A devnet customer paying on one chain, as a wallet app would. */
export class Customer {
  readonly provider: JsonRpcProvider;
  readonly wallet: Wallet;

  constructor(
    readonly chain: DevnetChain,
    account: DevnetAccount,
  ) {
    this.provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), {
      staticNetwork: true,
      cacheTimeout: -1,
      pollingInterval: 50,
    });
    this.wallet = new Wallet(account.privateKey, this.provider);
  }

  get address(): string {
    return this.wallet.address;
  }

  token(symbol: Currency): Contract {
    const address = this.chain.tokens[symbol];
    if (!address) throw new Error(`no ${symbol} on ${this.chain.name}`);
    return new Contract(address, ERC20, this.wallet);
  }

  /** Sends a token transfer and returns its hash once mined (reverted or not). */
  async pay(symbol: Currency, to: string, amount: string | bigint, gasLimit?: bigint): Promise<string> {
    const value = typeof amount === 'bigint' ? amount : units(amount);
    const tx = (await this.token(symbol).getFunction('transfer')(
      to,
      value,
      gasLimit ? { gasLimit } : {},
    )) as TransactionResponse;
    await this.mined(tx.hash);
    return tx.hash;
  }

  async mined(hash: string): Promise<void> {
    for (;;) {
      if (await this.provider.getTransactionReceipt(hash)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async balance(symbol: Currency, owner = this.address): Promise<bigint> {
    return (await this.token(symbol).getFunction('balanceOf')(owner)) as bigint;
  }

  destroy(): void {
    this.provider.destroy();
  }
}

export const customers = (devnet: Devnet, chainName: DevnetChain['name']): Customer[] =>
  devnet.customers.map((account) => new Customer(devnet.chain(chainName), account));

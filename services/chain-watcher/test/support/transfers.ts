import { randomUUID } from 'node:crypto';
import {
  Contract,
  JsonRpcProvider,
  Network,
  SigningKey,
  Wallet,
  id,
  toBeHex,
  zeroPadValue,
  type TransactionResponse,
} from 'ethers';
import { EventTypes, type BlockchainName, type Currency } from '@stablepay/contracts';
import { fiatTokenAbi, type Devnet, type DevnetChain } from '@stablepay/devnet';
import { deriveMerchantKey } from '../../src/custody/key-derivation.js';
import { openSeed } from '../../src/custody/seed-crypto.js';
import { KEK, type Harness, type Merchant } from './harness.js';

const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

/** RELAYER_PRIVATE_KEYS naming the devnet's gas-funded relayer of every chain (or of `only`). */
export const devnetRelayerKeys = (devnet: Devnet, only?: BlockchainName[]): string =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(devnet.relayers)
        .filter(([name]) => !only || only.includes(name as BlockchainName))
        .map(([name, a]) => [name, a!.privateKey]),
    ),
  );

/** Reads a devnet chain the way a block explorer would, and drives anvil's mining. */
export class ChainProbe {
  readonly provider: JsonRpcProvider;

  constructor(readonly chain: DevnetChain) {
    this.provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), {
      staticNetwork: true,
      cacheTimeout: -1,
      batchMaxCount: 1,
    });
  }

  token(symbol: Currency, runner: JsonRpcProvider | Wallet = this.provider): Contract {
    const address = this.chain.tokens[symbol];
    if (!address) throw new Error(`no ${symbol} on ${this.chain.name}`);
    return new Contract(address, fiatTokenAbi(), runner);
  }

  async balance(symbol: Currency, owner: string): Promise<bigint> {
    return (await this.token(symbol).getFunction('balanceOf')(owner)) as bigint;
  }

  async native(owner: string): Promise<bigint> {
    return BigInt(await this.provider.send('eth_getBalance', [owner, 'latest']));
  }

  async nonce(owner: string, tag: 'latest' | 'pending' = 'latest'): Promise<number> {
    return Number(await this.provider.send('eth_getTransactionCount', [owner, tag]));
  }

  /** Every Transfer log of the token to `to`, from genesis. */
  async transfersTo(symbol: Currency, to: string): Promise<Array<{ txHash: string; value: bigint }>> {
    const logs = await this.provider.getLogs({
      address: this.chain.tokens[symbol],
      fromBlock: 0,
      toBlock: 'latest',
      topics: [TRANSFER_TOPIC, null, zeroPadValue(to, 32)],
    });
    return logs.map((l) => ({ txHash: l.transactionHash, value: BigInt(l.data) }));
  }

  receipt(hash: string) {
    return this.provider.send('eth_getTransactionReceipt', [hash]) as Promise<Record<string, string> | null>;
  }

  transaction(hash: string) {
    return this.provider.send('eth_getTransactionByHash', [hash]) as Promise<Record<string, string> | null>;
  }

  async setAutomine(on: boolean): Promise<void> {
    await this.provider.send('evm_setAutomine', [on]);
  }

  async mine(blocks = 1): Promise<void> {
    await this.provider.send('anvil_mine', [toBeHex(blocks)]);
  }

  /** Hashes waiting in anvil's pool. */
  async pooled(): Promise<string[]> {
    const content = (await this.provider.send('txpool_content', [])) as {
      pending: Record<string, Record<string, { hash: string }>>;
    };
    return Object.values(content.pending).flatMap((byNonce) => Object.values(byNonce).map((tx) => tx.hash));
  }

  destroy(): void {
    this.provider.destroy();
  }
}

/** The merchant wallet's key, opened from the service's database as only a key holder could. */
export const merchantSigningKey = async (h: Harness, merchantId: string): Promise<SigningKey> => {
  const row = await h.db('master_seed').first();
  const seed = openSeed(
    { ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag },
    Buffer.from(KEK, 'hex'),
  );
  return new SigningKey(`0x${deriveMerchantKey(seed, merchantId).toString('hex')}`);
};

/** Cancels an EIP-3009 nonce with the wallet's key, sent and paid by `payer` (anyone may submit it). */
export const cancelAuthorization = async (
  probe: ChainProbe,
  key: SigningKey,
  payerKey: string,
  symbol: Currency,
  nonce: string,
  fees: { maxPriorityFeePerGas: bigint; maxFeePerGas: bigint } = {
    maxPriorityFeePerGas: 50_000_000_000n,
    maxFeePerGas: 100_000_000_000n,
  },
): Promise<string> => {
  const wallet = new Wallet(key);
  const token = probe.token(symbol);
  const domain = {
    name: (await token.getFunction('name')()) as string,
    version: '2',
    chainId: probe.chain.chainId,
    verifyingContract: await token.getAddress(),
  };
  const signature = await wallet.signTypedData(
    domain,
    {
      CancelAuthorization: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    { authorizer: wallet.address, nonce },
  );
  const payer = new Wallet(payerKey, probe.provider);
  const tx = (await probe.token(symbol, payer).getFunction('cancelAuthorization(address,bytes32,bytes)')(
    wallet.address,
    nonce,
    signature,
    { gasLimit: 200_000n, ...fees },
  )) as TransactionResponse;
  return tx.hash;
};

export interface TransferInput {
  merchant: Merchant;
  toAddress: string;
  amount: string;
  token?: Currency;
  blockchain?: BlockchainName;
  merchantId?: string;
  idempotencyKey?: string;
  purpose?: 'refund' | 'withdrawal' | 'cctp_forward';
}

/** Publishes transfer.requested (`copies` deliveries of one envelope); returns the idempotency key. */
export const requestTransfer = async (h: Harness, t: TransferInput, copies = 1): Promise<string> => {
  const idempotencyKey = t.idempotencyKey ?? randomUUID();
  const merchantId = t.merchantId ?? t.merchant.merchantId;
  await h.publish(
    EventTypes.TransferRequested,
    {
      idempotencyKey,
      purpose: t.purpose ?? 'refund',
      merchantId,
      blockchain: t.blockchain ?? t.merchant.blockchain,
      token: t.token ?? 'USDC',
      amount: t.amount,
      toAddress: t.toAddress,
    },
    { times: copies },
  );
  return idempotencyKey;
};

/** Transfer events about one key, as any consumer sees them. */
export const transferEvents = (h: Harness, key: string) =>
  h.events.messages.filter((e) => e.type.startsWith('transfer.') && e.data?.idempotencyKey === key);

/** The final outcome (confirmed or failed) of a key, once it arrives. */
export const transferOutcome = (h: Harness, key: string, timeoutMs = 20_000) =>
  h.event(
    (e) => (e.type === 'transfer.confirmed' || e.type === 'transfer.failed') && e.data.idempotencyKey === key,
    timeoutMs,
  );

export const transferRow = (h: Harness, key: string) =>
  h.db('transfers').where({ idempotency_key: key }).first();

export const attemptRows = async (h: Harness, key: string) => {
  const t = await transferRow(h, key);
  return t ? h.db('transfer_attempts').where({ transfer_id: t.id }).orderBy('attempt') : [];
};

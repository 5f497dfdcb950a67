import {
  Contract,
  JsonRpcProvider,
  MaxUint256,
  Network,
  Wallet,
  ZeroHash,
  getAddress,
  id,
  zeroPadValue,
  type TransactionReceipt,
} from 'ethers';
import { EventTypes, type CctpFeeQuote } from '@stablepay/contracts';
import {
  CCTP_EVENT_TOPICS,
  DEFAULT_DEVNET_CHAINS,
  addressToBytes32,
  fiatTokenAbi,
  tokenMessengerV2Abi,
  type Devnet,
  type DevnetAccount,
  type DevnetChain,
} from '@stablepay/devnet';
import { observeEvents, type EventObserver } from '@stablepay/platform/testing';
import { units } from './chain.js';
import type { Harness, Merchant } from './harness.js';

/** ETH (the payer's chain) and BASE (the merchant's): all the relayer flow needs, quick to start. */
export const RELAYER_TEST_CHAINS = DEFAULT_DEVNET_CHAINS.filter((c) => c.name === 'ETH' || c.name === 'BASE');

const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

/** A payer on a devnet chain burning USDC through TokenMessengerV2, as a wallet app would. */
export class Burner {
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

  /** approve + depositForBurn (fast finality unless told), mined. */
  async burn(opts: {
    amount: string;
    destination: DevnetChain;
    recipient: string;
    maxFee?: string;
    minFinalityThreshold?: number;
    destinationCaller?: string;
  }): Promise<TransactionReceipt> {
    const usdc = new Contract(this.chain.tokens.USDC, fiatTokenAbi(), this.wallet);
    await (await usdc.getFunction('approve')(this.chain.cctp.tokenMessenger, MaxUint256)).wait();
    const messenger = new Contract(this.chain.cctp.tokenMessenger, tokenMessengerV2Abi(), this.wallet);
    const tx = await messenger.getFunction('depositForBurn')(
      units(opts.amount),
      opts.destination.cctpDomain,
      addressToBytes32(opts.recipient),
      this.chain.tokens.USDC,
      opts.destinationCaller ? addressToBytes32(opts.destinationCaller) : ZeroHash,
      units(opts.maxFee ?? '0.5'),
      opts.minFinalityThreshold ?? 1000,
    );
    return (await tx.wait()) as TransactionReceipt;
  }

  destroy(): void {
    this.provider.destroy();
  }
}

/**
 * A fee quote as payments issues it. The chain-watcher does not check its signature (payments did,
 * before publishing payment.created); it reads amountToBurn and merchantReceives.
 */
export const feeQuote = (
  amountToBurn: number,
  merchantReceives: number,
  destinationChain = 'BASE',
): CctpFeeQuote => {
  const feeTotal = Math.round((amountToBurn - merchantReceives) * 1e6) / 1e6;
  return {
    productPrice: merchantReceives,
    amountToBurn,
    feeGas: feeTotal,
    feeCircle: 0,
    feeTotal,
    totalUserPays: amountToBurn,
    merchantReceives,
    destinationChain,
    validUntil: Math.floor(Date.now() / 1000) + 300,
    validForSeconds: 300,
    quoteId: '0b7f9c1e-8e2a-4f7d-9a51-2d6c3b4a5e61',
    breakdown: { gasEstimateUSD: feeTotal, gasWithBuffer: feeTotal, minGasFee: 0.5, bufferPercent: 20 },
    signature: 'ab'.repeat(32),
  };
};

/** payment.created of a legacy relayer-flow payment from ETH to the merchant's BASE wallet. */
export const publishRelayerPayment = (
  h: Harness,
  devnet: Devnet,
  p: { merchant: Merchant; burnTxHash: string; from: string; quote: CctpFeeQuote },
): Promise<string> =>
  h.publishPayment({
    merchant: p.merchant,
    txHash: p.burnTxHash,
    amount: String(p.quote.merchantReceives),
    expectedAmount: String(p.quote.amountToBurn),
    fromAddress: p.from,
    chainId: devnet.chain('ETH').chainId,
    sourceChain: 'ETH',
    isCrossChain: true,
    feeQuote: p.quote,
    destinationChainId: devnet.chain('BASE').chainId,
  });

/** Every chain.cctp.* event the service publishes. */
export const observeCctp = (h: Pick<Harness, 'amqpUrl' | 'prefix'>): Promise<EventObserver> =>
  observeEvents(h, [
    EventTypes.ChainCctpBurnVerified,
    EventTypes.ChainCctpAttested,
    EventTypes.ChainCctpMinted,
    EventTypes.ChainCctpTransferred,
    EventTypes.ChainCctpFailed,
  ]);

export const cctpEventsOf = (events: EventObserver, paymentId: string) =>
  events.messages.filter((e) => e.data?.paymentId === paymentId);

/** What the chain says about one payment's mint and transfer, from genesis: every log, never a sample. */
export const onChain = async (
  chain: DevnetChain,
  opts: { nonce: string; relay: string; merchant: string },
) => {
  const provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true });
  try {
    const received = await provider.getLogs({
      address: chain.cctp.messageTransmitter,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [CCTP_EVENT_TOPICS.MessageReceived, null, opts.nonce],
    });
    const transfers = await provider.getLogs({
      address: chain.tokens.USDC,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [
        TRANSFER_TOPIC,
        zeroPadValue(getAddress(opts.relay), 32),
        zeroPadValue(getAddress(opts.merchant), 32),
      ],
    });
    return {
      mints: received.map((l) => l.transactionHash.toLowerCase()),
      transfers: transfers.map((l) => ({ txHash: l.transactionHash.toLowerCase(), value: BigInt(l.data) })),
    };
  } finally {
    provider.destroy();
  }
};

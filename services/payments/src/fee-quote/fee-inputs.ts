import { CctpFeeInputsResponse, type BlockchainName, type CctpFeeInputs } from '@stablepay/contracts';
import { InternalCallError, callInternal } from '@stablepay/platform';
import type { PaymentsConfig } from '../config.js';

/** The fee inputs could not be read (chain-watcher down, slow, or answering nonsense). */
export class FeeInputsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeeInputsUnavailableError';
  }
}

export interface FeeInputsSource {
  /** The destination chain's gas price, mint-and-transfer gas and gas-coin price, read now. */
  feeInputs(destination: BlockchainName): Promise<CctpFeeInputs>;
}

/**
 * Reads fee inputs from the chain-watcher's internal API (`GET /internal/cctp/fee-inputs`) with a
 * short-lived service token.
 */
export class ChainWatcherClient implements FeeInputsSource {
  constructor(private readonly opts: { baseUrl: string; internalTokenSecret: string; timeoutMs: number }) {}

  async feeInputs(destination: BlockchainName): Promise<CctpFeeInputs> {
    let answer;
    try {
      answer = await callInternal({
        service: 'chain-watcher',
        baseUrl: this.opts.baseUrl,
        path: 'internal/cctp/fee-inputs',
        query: { destinationChain: destination },
        secret: this.opts.internalTokenSecret,
        timeoutMs: this.opts.timeoutMs,
        what: 'fee-input',
        schema: CctpFeeInputsResponse,
      });
    } catch (err) {
      if (err instanceof InternalCallError) throw new FeeInputsUnavailableError(err.message);
      throw err;
    }
    const inputs = answer!.data;
    if (inputs.blockchain !== destination)
      throw new FeeInputsUnavailableError(`chain-watcher priced ${inputs.blockchain}, not ${destination}`);
    return inputs;
  }
}

/** The fee-input source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherFeeInputs = (config: PaymentsConfig): FeeInputsSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });

import { CctpFeeInputsResponse, type BlockchainName, type CctpFeeInputs } from '@stablepay/contracts';
import { INTERNAL_TOKEN_HEADER, currentContext, signInternalToken } from '@stablepay/platform';
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
    const url = new URL('internal/cctp/fee-inputs', this.base());
    url.searchParams.set('destinationChain', destination);
    const headers: Record<string, string> = {
      accept: 'application/json',
      [INTERNAL_TOKEN_HEADER]: signInternalToken(this.opts.internalTokenSecret, { caller: 'service' }, 60),
    };
    const { correlationId } = currentContext();
    if (correlationId) headers['x-correlation-id'] = correlationId;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(this.opts.timeoutMs) });
    } catch (err) {
      throw new FeeInputsUnavailableError(
        `chain-watcher unreachable: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new FeeInputsUnavailableError(`chain-watcher answered ${res.status}: ${text.slice(0, 200)}`);
    let parsed: ReturnType<typeof CctpFeeInputsResponse.safeParse>;
    try {
      parsed = CctpFeeInputsResponse.safeParse(JSON.parse(text));
    } catch {
      throw new FeeInputsUnavailableError('chain-watcher answered with a body that is not JSON');
    }
    if (!parsed.success)
      throw new FeeInputsUnavailableError('chain-watcher answered with an unexpected fee-input shape');
    if (parsed.data.data.blockchain !== destination)
      throw new FeeInputsUnavailableError(
        `chain-watcher priced ${parsed.data.data.blockchain}, not ${destination}`,
      );
    return parsed.data.data;
  }

  private base(): string {
    return this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`;
  }
}

/** The fee-input source a deployed service uses: the chain-watcher named in the configuration. */
export const chainWatcherFeeInputs = (config: PaymentsConfig): FeeInputsSource =>
  new ChainWatcherClient({
    baseUrl: config.CHAIN_WATCHER_URL,
    internalTokenSecret: config.INTERNAL_TOKEN_SECRET,
    timeoutMs: config.CHAIN_WATCHER_TIMEOUT_MS,
  });

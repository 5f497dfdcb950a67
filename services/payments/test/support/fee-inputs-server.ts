import type { BlockchainName, CctpFeeInputs } from '@stablepay/contracts';
import type { CallerKind } from '@stablepay/platform';
import {
  TEST_INTERNAL_SECRET,
  refusal,
  startServiceDouble,
  type RunningDouble,
} from '@stablepay/platform/testing';

export interface FeeInputsRequest {
  destinationChain: string | null;
  /** the caller named by the internal token; undefined when the token did not verify */
  caller?: CallerKind;
}

/**
 * A real HTTP server standing in for the chain-watcher's internal fee-input route
 * (`GET /internal/cctp/fee-inputs`). It verifies the internal token exactly as the chain-watcher
 * does and answers with whatever the test set.
 */
export class FeeInputsServer {
  readonly requests: FeeInputsRequest[] = [];
  /** While set, every request answers 503. */
  failing = false;
  /** While set, every request answers 200 with this body instead. */
  rawAnswer?: string;
  private readonly inputs = new Map<BlockchainName, CctpFeeInputs>();
  private double?: RunningDouble;
  url = '';

  constructor(private readonly secret: string = TEST_INTERNAL_SECRET) {}

  set(inputs: CctpFeeInputs): this {
    this.inputs.set(inputs.blockchain, inputs);
    return this;
  }

  async start(): Promise<this> {
    this.double = await startServiceDouble({
      secret: this.secret,
      route: (url) => (url.pathname === '/internal/cctp/fee-inputs' ? {} : undefined),
      answer: (_params, caller, url) => {
        const destinationChain = url.searchParams.get('destinationChain');
        this.requests.push({ destinationChain, caller });
        if (caller === undefined) return refusal(401, 'Invalid internal token');
        if (caller !== 'service') return refusal(403, 'Service token required');
        if (this.failing) return refusal(503, 'Chain unavailable');
        if (this.rawAnswer !== undefined) return { status: 200, body: this.rawAnswer };
        const inputs = this.inputs.get(destinationChain as BlockchainName);
        if (!inputs) return refusal(400, 'Chain not served');
        return { status: 200, body: { success: true, data: inputs } };
      },
    });
    this.url = this.double.url;
    return this;
  }

  async close(): Promise<void> {
    await this.double?.close();
  }
}

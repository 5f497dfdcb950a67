import type { PublicChains } from '@stablepay/contracts';
import type { Language } from '@stablepay/contracts/shared/languages';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GatewayClient } from '../../api.js';
import type { Eip1193Provider } from '../../eth/wallet.js';
import { payError, type PayError } from '../../pay/errors.js';
import { payGasless } from '../../pay/gasless.js';
import { clearPending, savePending } from '../../pay/pending.js';
import { watchForQrTransfer } from '../../pay/qr-watch.js';
import { paySameChain } from '../../pay/same-chain.js';
import type {
  PayContext,
  PaymentOutcome,
  PaymentTarget,
  PayOption,
  PendingPayment,
  Step,
  StepKind,
} from '../../pay/types.js';

const stepsFor = (kind: PendingPayment['kind'], withProof: boolean): Step[] => {
  const proof = withProof ? (['proof'] as const) : [];
  const kinds: Record<PendingPayment['kind'], StepKind[]> = {
    qr: ['transfer', 'record', 'settle'],
    'same-chain': ['switch', ...proof, 'transfer', 'confirm', 'record', 'settle'],
    'cross-chain': ['switch', ...proof, 'approve', 'burn', 'attest', 'mint', 'record', 'settle'],
    // The authorization's nonce ties it to the session: no separate proof.
    gasless: ['switch', 'sign', 'record', 'relay', 'settle'],
  };
  return kinds[kind].map((k) => ({ kind: k, state: 'waiting' }));
};

/** A step's news merged into the list: a hash or chain once known stays known. */
const withStep = (all: Step[], step: Step): Step[] =>
  all.map((s) =>
    s.kind === step.kind
      ? { ...s, ...step, txHash: step.txHash ?? s.txHash, chainId: step.chainId ?? s.chainId }
      : s,
  );

const payWith = async (
  ctx: PayContext,
  pending: PendingPayment,
  option?: PayOption,
): Promise<PaymentOutcome> => {
  if (pending.kind === 'qr') return watchForQrTransfer(ctx, pending);
  if (pending.kind === 'same-chain') return paySameChain(ctx, option!, pending);
  if (pending.kind === 'gasless') return payGasless(ctx, option!, pending);
  return (await import('../../pay/cross-chain.js')).payCrossChain(ctx, option!, pending);
};

export interface PaymentDeps {
  api: GatewayClient;
  chains: PublicChains;
  provider?: Eip1193Provider;
  target: PaymentTarget;
  language: Language;
  refreshSession(): Promise<void>;
  onFinished(result: { status: 'completed'; outcome: PaymentOutcome }): void;
}

/**
 * Runs one payment to its end, whichever way it goes, keeping it in storage so a reload resumes it,
 * with its steps, its problem and its outcome for the page to show.
 */
export const usePayment = (deps: PaymentDeps) => {
  const { target } = deps;
  const [steps, setSteps] = useState<Step[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<PayError>();
  const [outcome, setOutcome] = useState<PaymentOutcome>();
  const abort = useRef(new AbortController());
  useEffect(() => () => abort.current.abort(), []);

  const finish = (result: PaymentOutcome) => {
    setOutcome(result);
    deps.onFinished({ status: 'completed', outcome: result });
  };

  const fail = async (err: unknown, pending: PendingPayment) => {
    const problem = payError(err);
    setSteps((all) => all.map((s) => (s.state === 'active' ? { ...s, state: 'failed' } : s)));
    // Declined, refused or unaffordable before anything was sent or recorded: start afresh next time.
    if (!pending.txHash && !pending.paymentId && problem.problem !== 'failed') clearPending(pending.key);
    if (problem.problem === 'top_up_needed') {
      // Not an error: the session asks for the rest, and the top-up view takes over.
      clearPending(pending.key);
      await deps.refreshSession();
      return;
    }
    setError(problem);
    if (problem.problem === 'session_expired' || problem.problem === 'session_complete')
      void deps.refreshSession();
  };

  const run = async (pending: PendingPayment, option?: PayOption) => {
    setRunning(true);
    setError(undefined);
    setSteps(stepsFor(pending.kind, !!target.sessionId));
    savePending(pending);
    try {
      const ctx: PayContext = {
        api: deps.api,
        chains: deps.chains,
        provider: deps.provider,
        target,
        language: deps.language,
        signal: abort.current.signal,
        save: savePending,
        onStep: (step) => setSteps((all) => withStep(all, step)),
      };
      const result = await payWith(ctx, pending, option);
      clearPending(pending.key);
      finish(result);
    } catch (err) {
      if (!abort.current.signal.aborted) await fail(err, pending);
    } finally {
      setRunning(false);
    }
  };

  return { steps, running, error, setError, outcome, finish, run };
};

export type Payment = ReturnType<typeof usePayment>;

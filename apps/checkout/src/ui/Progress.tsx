import type { PublicChain } from '@stablepay/contracts';
import { explorerTxUrl } from '@stablepay/contracts/chains/explorer-links';
import type { Translate } from '../i18n.js';
import type { Step, StepKind } from '../pay/types.js';
import { shortHash } from './links.js';

const LABEL: Record<StepKind, Parameters<Translate>[0]> = {
  switch: 'stepSwitch',
  proof: 'stepProof',
  sign: 'stepSign',
  transfer: 'stepTransfer',
  approve: 'stepApprove',
  burn: 'stepBurn',
  attest: 'stepAttest',
  mint: 'stepMint',
  confirm: 'stepConfirm',
  record: 'stepRecord',
  relay: 'stepRelay',
  settle: 'stepSettle',
};

const MARK = { waiting: '○', active: '◌', done: '✓', failed: '✕' } as const;

/** Each step of the payment with its state and, once sent, its transaction. */
export const Progress = ({
  steps,
  chains,
  vars,
  t,
  formatUnits,
}: {
  steps: Step[];
  chains: PublicChain[];
  vars: Record<string, string>;
  t: Translate;
  /** base units as the page shows amounts */
  formatUnits: (units: bigint) => string;
}) => (
  <ol class="steps" aria-live="polite">
    {steps.map((step) => {
      const chain = chains.find((c) => c.chainId === step.chainId)?.name ?? vars.chain ?? '';
      const url = step.txHash ? explorerTxUrl(step.chainId, step.txHash) : undefined;
      return (
        <li key={step.kind} class={`step ${step.state}`} data-step={step.kind} data-state={step.state}>
          <span class="mark" aria-hidden="true">
            {MARK[step.state]}
          </span>
          <span>
            {t(LABEL[step.kind], {
              ...vars,
              chain,
              ...(step.units ? { amount: formatUnits(BigInt(step.units)) } : {}),
            })}
          </span>
          {step.txHash &&
            (url ? (
              <a class="tx" href={url} target="_blank" rel="noopener noreferrer" data-tx={step.txHash}>
                {t('viewTx', { hash: shortHash(step.txHash) })}
              </a>
            ) : (
              <code class="tx" title={step.txHash} data-tx={step.txHash}>
                {t('viewTx', { hash: shortHash(step.txHash) })}
              </code>
            ))}
        </li>
      );
    })}
  </ol>
);

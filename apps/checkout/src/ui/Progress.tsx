import type { PublicChain } from '@stablepay/contracts';
import { useEffect, useRef } from 'preact/hooks';
import type { Translate } from '../i18n.js';
import type { Step, StepKind } from '../pay/types.js';
import { chainLabel, explorerTx } from '../chains.js';
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

/**
 * Each step of the payment with its state and, once sent, its transaction. The list scrolls into
 * view whenever a step changes, so that a customer on a phone sees what is happening, not the button
 * they pressed.
 */
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
}) => {
  const list = useRef<HTMLOListElement>(null);
  const now = steps.map((s) => `${s.kind}:${s.state}`).join();
  useEffect(() => list.current?.scrollIntoView({ block: 'nearest' }), [now]);
  return (
    <ol class="steps" aria-live="polite" ref={list} data-steps>
      {steps.map((step) => {
        const on = chains.find((c) => c.chainId === step.chainId);
        const chain = on ? chainLabel(on) : (vars.chain ?? '');
        const url = step.txHash ? explorerTx(on, step.txHash) : undefined;
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
};

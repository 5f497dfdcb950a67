import { expect } from 'chai';
import type { IntegrationEvent } from '@stablepay/contracts';
import type { LoopWorker } from '@stablepay/platform';
import { combineWorkers } from '../../src/context/capability-workers.js';

/** A worker that only counts its wake-ups. */
const counting = () => {
  const w = { wakes: 0, wake: () => void w.wakes++ };
  return w;
};
const event = (type: string, data: Record<string, unknown> = {}) =>
  ({ type, data }) as unknown as IntegrationEvent;

describe('chain-watcher: the wake-up after a consumed event', () => {
  it('wakes only the workers whose rows the event inserts', () => {
    const verifier = counting();
    const cctp = counting();
    const sender = counting();
    const { wake } = combineWorkers([
      {
        workers: [],
        wakeOnEvents: [
          {
            worker: verifier as unknown as LoopWorker,
            by: (e) => e.type === 'payment.created' && !(e.data as { isCrossChain: boolean }).isCrossChain,
          },
          {
            worker: cctp as unknown as LoopWorker,
            by: (e) => e.type === 'payment.created' && (e.data as { isCrossChain: boolean }).isCrossChain,
          },
        ],
      },
      {
        workers: [],
        wakeOnEvents: [
          { worker: sender as unknown as LoopWorker, by: (e) => e.type === 'transfer.requested' },
        ],
      },
    ]);

    wake(event('payment.created', { isCrossChain: false }));
    expect([verifier.wakes, cctp.wakes, sender.wakes]).to.deep.equal([1, 0, 0]);
    wake(event('payment.created', { isCrossChain: true }));
    expect([verifier.wakes, cctp.wakes, sender.wakes]).to.deep.equal([1, 1, 0]);
    wake(event('transfer.requested'));
    expect([verifier.wakes, cctp.wakes, sender.wakes]).to.deep.equal([1, 1, 1]);
    // An event that inserts no leased rows wakes nobody: no lease query that finds nothing.
    wake(event('merchant.settings_updated'));
    expect([verifier.wakes, cctp.wakes, sender.wakes]).to.deep.equal([1, 1, 1]);
  });

  it('keeps every capability worker in the list it runs', () => {
    const a = counting() as unknown as LoopWorker;
    const b = counting() as unknown as LoopWorker;
    const { workers } = combineWorkers([
      { workers: [a], wakeOnEvents: [] },
      { workers: [b], wakeOnEvents: [] },
    ]);
    expect(workers).to.deep.equal([a, b]);
  });
});

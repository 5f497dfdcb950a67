import { expect } from 'chai';
import type { QueuedAttempt } from '../../src/context.js';
import { WaitingAttempts } from '../../src/delivery/waiting-attempts.js';

/** Attempts of one endpoint; only the id and the endpoint matter to the queue. */
const queued = (endpointId: string, n: number, from = 0): QueuedAttempt[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${endpointId}-${from + i}`,
    deliveryId: `d-${endpointId}-${from + i}`,
    endpointId,
    merchantId: 'm',
    eventId: `e-${from + i}`,
    eventType: 'payment.completed',
    attempt: 1,
    trigger: 'event',
    body: '{}',
    isTest: false,
    occurredAt: new Date(0),
  }));

describe('attempts waiting for a claim by id', () => {
  it('are picked oldest first, each endpoint within its free slots, the rest kept in order', () => {
    const w = new WaitingAttempts();
    // a: 1 in flight already, limit 2; b: at its limit.
    const busy = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(w.add([...queued('a', 3), ...queued('b', 2), ...queued('c', 3)])).to.equal(true);
    const picked = w.pick(10, (e) => busy.get(e) ?? 0, 2);
    expect(picked.map((p) => p.id)).to.deep.equal(['a-0', 'c-0', 'c-1']);
    expect(w.size).to.equal(5);
    busy.clear();
    expect(w.pick(3, () => 0, 2).map((p) => p.id)).to.deep.equal(['a-1', 'a-2', 'b-0']);
    expect(w.pick(10, () => 0, 2).map((p) => p.id)).to.deep.equal(['b-1', 'c-2']);
    expect(w.size).to.equal(0);
  });

  it('refuse what goes past the bound, and forget the oldest on request', () => {
    const w = new WaitingAttempts(5);
    expect(w.add(queued('a', 4))).to.equal(true);
    expect(w.add(queued('b', 2))).to.equal(false);
    expect(w.size).to.equal(4);
    w.dropOldest(3);
    expect(w.pick(5, () => 0, 9).map((p) => p.id)).to.deep.equal(['a-3']);
  });

  it('look at no more than the scan bound per pick', () => {
    const w = new WaitingAttempts(100, 10);
    w.add([...queued('full', 20), ...queued('free', 1)]);
    expect(w.pick(5, (e) => (e === 'full' ? 1 : 0), 1)).to.deep.equal([]);
    expect(w.size).to.equal(21);
  });
});

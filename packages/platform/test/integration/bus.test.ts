import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PermanentError, type BusMessage, type EventBus } from '../../src/messaging/bus.js';
import { busBackends } from '../support/backends.js';
import { waitFor } from '../../src/testing.js';

const message = (type: string, extra: Record<string, unknown> = {}): BusMessage => {
  const id = randomUUID();
  return { id, type, body: { id, type, ...extra } };
};

for (const backend of busBackends) {
  describe(`event bus on ${backend.name}`, () => {
    let bus: EventBus;

    beforeEach(async () => {
      ({ bus } = await backend.create());
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers a message once to every queue whose keys match, and not to others', async () => {
      const got: Record<string, string[]> = { a: [], b: [], c: [] };
      await bus.subscribe({
        queue: 'a',
        routingKeys: ['payment.completed'],
        handler: async (d) => void got.a!.push(d.message.id),
      });
      await bus.subscribe({
        queue: 'b',
        routingKeys: ['payment.*'],
        handler: async (d) => void got.b!.push(d.message.id),
      });
      await bus.subscribe({
        queue: 'c',
        routingKeys: ['refund.#'],
        handler: async (d) => void got.c!.push(d.message.id),
      });
      const m = message('payment.completed');
      await bus.publish(m);
      await waitFor(() => got.a!.length === 1 && got.b!.length === 1, 'deliveries');
      // A later message proves nothing else for `a`/`b` was in flight.
      const r = message('refund.created');
      await bus.publish(r);
      await waitFor(() => got.c!.length === 1, 'refund delivery');
      expect(got.a).to.deep.equal([m.id]);
      expect(got.b).to.deep.equal([m.id]);
      expect(got.c).to.deep.equal([r.id]);
    });

    it('retries a failing handler with a delay and then succeeds', async () => {
      const attempts: number[] = [];
      await bus.subscribe({
        queue: 'flaky',
        routingKeys: ['x.y'],
        retryDelaysMs: [50, 50, 50],
        handler: async (d) => {
          attempts.push(d.attempt);
          if (d.attempt < 3) throw new Error('transient');
        },
      });
      await bus.publish(message('x.y'));
      await waitFor(() => attempts.length === 3, 'three attempts');
      expect(attempts).to.deep.equal([1, 2, 3]);
      expect(await bus.peekDeadLetters('flaky')).to.have.length(0);
    });

    it('dead-letters a handler that keeps failing without blocking the messages behind it', async () => {
      const handled: string[] = [];
      let poisonAttempts = 0;
      await bus.subscribe({
        queue: 'poison',
        routingKeys: ['p.#'],
        retryDelaysMs: [100, 100],
        prefetch: 1,
        handler: async (d) => {
          if (d.message.body.poison) {
            poisonAttempts++;
            throw new Error('cannot handle this one');
          }
          handled.push(d.message.id);
        },
      });
      const poison = message('p.one', { poison: true });
      await bus.publish(poison);
      const good = [message('p.two'), message('p.three')];
      for (const g of good) await bus.publish(g);
      await waitFor(() => handled.length === 2, 'good messages');
      const dead = await waitFor(async () => {
        const d = await bus.peekDeadLetters('poison');
        return d.length === 1 ? d : undefined;
      }, 'dead letter');
      expect(dead[0]!.message.id).to.equal(poison.id);
      expect(dead[0]!.error).to.contain('cannot handle this one');
      expect(poisonAttempts).to.equal(3);
      expect(handled).to.have.members(good.map((g) => g.id));
    });

    it('dead-letters a permanent error at once', async () => {
      let calls = 0;
      await bus.subscribe({
        queue: 'perm',
        routingKeys: ['q.r'],
        retryDelaysMs: [50, 50],
        handler: async () => {
          calls++;
          throw new PermanentError('unknown version 9');
        },
      });
      await bus.publish(message('q.r'));
      const dead = await waitFor(async () => {
        const d = await bus.peekDeadLetters('perm');
        return d.length === 1 ? d : undefined;
      }, 'dead letter');
      expect(calls).to.equal(1);
      expect(dead[0]!.error).to.contain('unknown version 9');
    });

    it('waits for handlers in flight when consumers stop', async () => {
      let finished = false;
      let started = false;
      await bus.subscribe({
        queue: 'slow',
        routingKeys: ['s.t'],
        handler: async () => {
          started = true;
          await new Promise((r) => setTimeout(r, 200));
          finished = true;
        },
      });
      await bus.publish(message('s.t'));
      await waitFor(() => started, 'handler start');
      await bus.stopConsuming();
      expect(finished).to.equal(true);
    });
  });
}

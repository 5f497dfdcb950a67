import { expect } from 'chai';
import type { Channel, Message } from 'amqplib';
import { BatchedAcks } from '../../src/messaging/batched-acks.js';

const delivery = (deliveryTag: number) => ({ fields: { deliveryTag } }) as Message;
const endOfTurn = () => new Promise((r) => setImmediate(r));

describe('batched acknowledgements', () => {
  const channel = () => {
    const acked: Array<[number, boolean]> = [];
    const ch = { ack: (m: Message, allUpTo?: boolean) => void acked.push([m.fields.deliveryTag, !!allUpTo]) };
    return { ch: ch as unknown as Channel, acked };
  };

  it('acknowledges the finished run at the front with one multiple ack, and a finished one behind a busy one alone', async () => {
    const { ch, acked } = channel();
    const acks = new BatchedAcks(ch, (err) => {
      throw err;
    });
    const d = [1, 2, 3, 4, 5, 6].map(delivery);
    d.forEach((m) => acks.delivered(m));
    // 4 is still being handled; 1–3 and 5 finished in this turn.
    for (const i of [2, 0, 1, 4]) acks.ack(d[i]!);
    expect(acked).to.deep.equal([]);
    await endOfTurn();
    expect(acked).to.deep.equal([
      [3, true],
      [5, false],
    ]);
    // 4 alone at the front: a single ack, which must not cover 6, still in flight.
    acks.ack(d[3]!);
    await endOfTurn();
    expect(acked.slice(2)).to.deep.equal([[4, false]]);
    acks.ack(d[5]!);
    await endOfTurn();
    expect(acked.slice(3)).to.deep.equal([[6, false]]);
  });

  it('reports an ack the closed channel refused; the broker redelivers those deliveries', async () => {
    const errors: unknown[] = [];
    const ch = {
      ack: () => {
        throw new Error('Channel closed');
      },
    } as unknown as Channel;
    const acks = new BatchedAcks(ch, (err) => errors.push(err));
    const m = delivery(1);
    acks.delivered(m);
    acks.ack(m);
    await endOfTurn();
    expect(errors).to.have.length(1);
  });
});

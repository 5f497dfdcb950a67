import type { Channel, Message } from 'amqplib';

/**
 * Acknowledges a consumer channel's deliveries in as few frames as it can. A consumer commits the
 * deliveries it handles together in one transaction (group-commit.ts), so they finish in the same
 * turn of the event loop: their acks are gathered until that turn ends, and the run of finished
 * deliveries at the front of the channel's unacknowledged ones goes out as one `multiple` ack
 * (which acknowledges every earlier delivery too, hence only that run). A finished delivery behind
 * one still being handled is acknowledged alone, so that a slow message never holds the others.
 */
export class BatchedAcks {
  /** deliveries not acknowledged yet, in the order the broker sent them (ascending delivery tags) */
  private unacked: Message[] = [];
  private readonly finished = new Set<Message>();
  private scheduled = false;

  constructor(
    private readonly ch: Channel,
    private readonly onError: (err: unknown) => void,
  ) {}

  delivered(msg: Message): void {
    this.unacked.push(msg);
  }

  /** The delivery's effect committed (or it was moved): acknowledge it once this turn ends. */
  ack(msg: Message): void {
    this.finished.add(msg);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    let front = 0;
    while (front < this.unacked.length && this.finished.has(this.unacked[front]!)) front++;
    const leading = this.unacked.slice(0, front);
    const rest = this.unacked.slice(front);
    const alone = rest.filter((m) => this.finished.has(m));
    this.unacked = rest.filter((m) => !this.finished.has(m));
    this.finished.clear();
    try {
      // Unacknowledged deliveries of a closed channel go back to the queue: the inbox makes their
      // redelivery a no-op.
      if (leading.length > 0) this.ch.ack(leading[leading.length - 1]!, leading.length > 1);
      for (const m of alone) this.ch.ack(m);
    } catch (err) {
      this.onError(err);
    }
  }
}

import {
  DEFAULT_RETRY_DELAYS_MS,
  PermanentError,
  errorText,
  topicMatches,
  type BusMessage,
  type DeadLetter,
  type EventBus,
  type Subscription,
} from './bus.js';

/**
 * The bus for single-process runs: same routing, retry and dead-letter semantics as the RabbitMQ
 * bus, each queue delivered to once per message. Messages in flight live in memory only; the
 * producers' outbox is what makes them durable.
 */
export class InProcessBus implements EventBus {
  readonly kind = 'in-process' as const;
  private readonly subscriptions: Subscription[] = [];
  private readonly deadLetters = new Map<string, DeadLetter[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private consuming = true;
  private closed = false;

  async publish(message: BusMessage): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    const copy = JSON.parse(JSON.stringify(message)) as BusMessage;
    for (const sub of this.subscriptions) {
      if (sub.routingKeys.some((k) => topicMatches(k, copy.routingKey ?? copy.type)))
        this.schedule(sub, copy, 1, 0);
    }
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
  }

  async check(): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
  }

  async stopConsuming(): Promise<void> {
    this.consuming = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.inFlight > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  async close(): Promise<void> {
    await this.stopConsuming();
    this.closed = true;
  }

  async peekDeadLetters(queue: string, max = 100): Promise<DeadLetter[]> {
    return (this.deadLetters.get(queue) ?? []).slice(0, max);
  }

  private schedule(sub: Subscription, message: BusMessage, attempt: number, delayMs: number): void {
    if (!this.consuming) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.deliver(sub, message, attempt);
    }, delayMs);
    this.timers.add(timer);
  }

  private async deliver(sub: Subscription, message: BusMessage, attempt: number): Promise<void> {
    if (!this.consuming) return;
    this.inFlight++;
    try {
      await sub.handler({ message, attempt, redelivered: false });
    } catch (err) {
      const delays = sub.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
      if (err instanceof PermanentError || attempt > delays.length) {
        const list = this.deadLetters.get(sub.queue) ?? [];
        list.push({ message, error: errorText(err), attempts: attempt });
        this.deadLetters.set(sub.queue, list);
      } else {
        this.schedule(sub, message, attempt + 1, delays[attempt - 1]!);
      }
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) {
        for (const w of this.idleWaiters.splice(0)) w();
      }
    }
  }
}

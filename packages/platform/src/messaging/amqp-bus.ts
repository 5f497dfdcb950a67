import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger.js';
import { BatchedAcks } from './batched-acks.js';
import {
  DEFAULT_RETRY_DELAYS_MS,
  PermanentError,
  errorText,
  type BusMessage,
  type DeadLetter,
  type EventBus,
  type Subscription,
} from './bus.js';

export interface AmqpBusOptions {
  url: string;
  /** Prepended to every exchange and queue name so that runs never share queues. */
  prefix?: string;
  logger: Logger;
  /** Messages a consumer delivers more often than this (it keeps crashing) are dead-lettered. */
  deliveryLimit?: number;
}

const ATTEMPT_HEADER = 'x-attempt';
const ERROR_HEADER = 'x-last-error';

/**
 * RabbitMQ bus: one durable topic exchange, a durable quorum queue per consuming service, a
 * dead-letter queue beside it and TTL retry queues that dead-letter back into it. Publishing waits
 * for the broker's confirm; consumers acknowledge only after the handler (and any move to a retry
 * or dead-letter queue) is done. The connection is re-established after a broker restart.
 */
export class AmqpBus implements EventBus {
  readonly kind = 'amqp' as const;
  private connection?: ChannelModel;
  private publishChannel?: ConfirmChannel;
  private consumers: Array<{ channel: Channel; tag: string }> = [];
  private readonly subscriptions: Subscription[] = [];
  private connecting?: Promise<void>;
  private closing = false;
  private consuming = true;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly prefix: string;
  private readonly exchange: string;

  constructor(private readonly opts: AmqpBusOptions) {
    this.prefix = opts.prefix ?? '';
    this.exchange = `${this.prefix}stablepay.events`;
  }

  queueName(queue: string): string {
    return `${this.prefix}${queue}`;
  }

  async connect(): Promise<void> {
    if (this.publishChannel) return;
    this.connecting ??= this.establish().finally(() => (this.connecting = undefined));
    await this.connecting;
  }

  private async establish(): Promise<void> {
    const url = this.opts.url.includes('heartbeat=')
      ? this.opts.url
      : `${this.opts.url}${this.opts.url.includes('?') ? '&' : '?'}heartbeat=15`;
    const connection = await amqp.connect(url);
    connection.on('error', (err) => this.opts.logger.warn('amqp connection error', { err: errorText(err) }));
    connection.on('close', () => this.onConnectionLost());
    const publishChannel = await connection.createConfirmChannel();
    publishChannel.on('error', (err) => this.opts.logger.warn('amqp channel error', { err: errorText(err) }));
    await publishChannel.assertExchange(this.exchange, 'topic', { durable: true });
    this.connection = connection;
    this.publishChannel = publishChannel;
    for (const sub of this.subscriptions) await this.startConsumer(sub);
    this.opts.logger.info('amqp connected', { exchange: this.exchange });
  }

  private onConnectionLost(): void {
    this.connection = undefined;
    this.publishChannel = undefined;
    this.consumers = [];
    if (this.closing) return;
    this.opts.logger.warn('amqp connection lost; reconnecting');
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    let delay = 250;
    while (!this.closing && !this.publishChannel) {
      try {
        await this.connect();
        return;
      } catch (err) {
        this.opts.logger.warn('amqp reconnect failed', { err: errorText(err), retryInMs: delay });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }

  private channel(): ConfirmChannel {
    if (!this.publishChannel) throw new Error('amqp bus is not connected');
    return this.publishChannel;
  }

  private confirmSend(send: (ch: ConfirmChannel, done: (err: unknown) => void) => void): Promise<void> {
    const ch = this.channel();
    return new Promise((resolve, reject) => {
      send(ch, (err) => (err ? reject(err instanceof Error ? err : new Error('message nacked')) : resolve()));
    });
  }

  async publish(message: BusMessage): Promise<void> {
    const body = Buffer.from(JSON.stringify(message.body));
    await this.confirmSend((ch, done) =>
      ch.publish(
        this.exchange,
        message.routingKey ?? message.type,
        body,
        {
          persistent: true,
          messageId: message.id,
          type: message.type,
          correlationId: message.correlationId,
          contentType: 'application/json',
          headers: { [ATTEMPT_HEADER]: 1 },
        },
        done,
      ),
    );
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
    if (this.publishChannel) await this.startConsumer(subscription);
    else await this.connect();
  }

  private async startConsumer(sub: Subscription): Promise<void> {
    if (!this.connection || !this.consuming) return;
    const queue = this.queueName(sub.queue);
    const dlq = `${queue}.dlq`;
    const ch = await this.connection.createChannel();
    ch.on('error', (err) =>
      this.opts.logger.warn('amqp consumer channel error', { queue, err: errorText(err) }),
    );
    await ch.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.assertQueue(queue, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': dlq,
        'x-delivery-limit': this.opts.deliveryLimit ?? 20,
      },
    });
    for (const key of sub.routingKeys) await ch.bindQueue(queue, this.exchange, key);
    for (const delay of sub.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS) {
      await ch.assertQueue(`${queue}.retry.${delay}`, {
        durable: true,
        arguments: {
          'x-message-ttl': delay,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': queue,
        },
      });
    }
    await ch.prefetch(sub.prefetch ?? 16);
    const acks = new BatchedAcks(ch, (err) =>
      this.opts.logger.warn('acknowledgement not sent, the broker will redeliver', {
        queue,
        err: errorText(err),
      }),
    );
    const { consumerTag } = await ch.consume(queue, (msg) => {
      if (!msg) return;
      acks.delivered(msg);
      void this.onMessage(sub, acks, msg);
    });
    this.consumers.push({ channel: ch, tag: consumerTag });
  }

  private async onMessage(sub: Subscription, acks: BatchedAcks, msg: ConsumeMessage): Promise<void> {
    this.inFlight++;
    const queue = this.queueName(sub.queue);
    const headers = msg.properties.headers ?? {};
    const attempt = Number(headers[ATTEMPT_HEADER] ?? 1) || 1;
    try {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(msg.content.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw new PermanentError('message body is not JSON');
      }
      const message: BusMessage = {
        id: String(msg.properties.messageId ?? body.id ?? ''),
        type: String(msg.properties.type ?? msg.fields.routingKey),
        correlationId: msg.properties.correlationId as string | undefined,
        body,
      };
      try {
        await sub.handler({ message, attempt, redelivered: msg.fields.redelivered });
        acks.ack(msg);
      } catch (err) {
        const delays = sub.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        const target =
          err instanceof PermanentError || attempt > delays.length
            ? `${queue}.dlq`
            : `${queue}.retry.${delays[attempt - 1]}`;
        // Moved first, acknowledged after: a crash in between redelivers, it never loses.
        await this.confirmSend((pub, done) =>
          pub.sendToQueue(
            target,
            msg.content,
            {
              ...msg.properties,
              persistent: true,
              headers: {
                ...headers,
                [ATTEMPT_HEADER]: attempt + 1,
                [ERROR_HEADER]: errorText(err).slice(0, 1000),
              },
            },
            done,
          ),
        );
        acks.ack(msg);
      }
    } catch (err) {
      if (err instanceof PermanentError) {
        try {
          await this.confirmSend((pub, done) =>
            pub.sendToQueue(
              `${queue}.dlq`,
              msg.content,
              {
                ...msg.properties,
                persistent: true,
                headers: { ...headers, [ERROR_HEADER]: err.message },
              },
              done,
            ),
          );
          acks.ack(msg);
        } catch (moveErr) {
          this.opts.logger.error('could not dead-letter message', { queue, err: errorText(moveErr) });
        }
      } else {
        // The channel or connection failed mid-move; the broker will redeliver the message.
        this.opts.logger.warn('message left for redelivery', { queue, err: errorText(err) });
      }
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  async check(): Promise<void> {
    await this.channel().checkExchange(this.exchange);
  }

  async stopConsuming(): Promise<void> {
    this.consuming = false;
    for (const { channel, tag } of this.consumers) {
      try {
        await channel.cancel(tag);
      } catch {
        // channel already gone: nothing is being delivered on it
      }
    }
    if (this.inFlight > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    // The last deliveries' acks wait for the end of the turn (batched-acks.ts): out before closing.
    await new Promise((r) => setImmediate(r));
  }

  async close(): Promise<void> {
    await this.stopConsuming();
    this.closing = true;
    try {
      await this.connection?.close();
    } catch {
      // already closed
    }
  }

  async peekDeadLetters(queue: string, max = 100): Promise<DeadLetter[]> {
    if (!this.connection) throw new Error('amqp bus is not connected');
    const ch = await this.connection.createChannel();
    const out: DeadLetter[] = [];
    try {
      for (let i = 0; i < max; i++) {
        const msg = await ch.get(`${this.queueName(queue)}.dlq`, { noAck: false });
        if (!msg) break;
        const headers = msg.properties.headers ?? {};
        out.push({
          message: {
            id: String(msg.properties.messageId ?? ''),
            type: String(msg.properties.type ?? ''),
            body: JSON.parse(msg.content.toString('utf8')) as Record<string, unknown>,
          },
          error: String(headers[ERROR_HEADER] ?? ''),
          attempts: Number(headers[ATTEMPT_HEADER] ?? 1) - 1,
        });
      }
    } finally {
      await ch.close(); // unacknowledged messages go back to the queue
    }
    return out;
  }
}

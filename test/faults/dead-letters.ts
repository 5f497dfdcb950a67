import amqp from 'amqplib';

/**
 * What each dead-lettered message is and why it was given up on (the bus's `x-last-error` header), so
 * a non-empty dead-letter queue is explained in the report. The messages stay where they are: they
 * are read without acknowledgement and return to the queue when the channel closes.
 */
export const deadLetterReasons = async (
  url: string,
  queues: Array<{ name: string; messages: number }>,
): Promise<string[]> => {
  const full = queues.filter((q) => q.messages > 0);
  if (full.length === 0) return [];
  const conn = await amqp.connect(url);
  const lines: string[] = [];
  try {
    const ch = await conn.createChannel();
    for (const q of full) {
      for (let n = 0; n < Math.min(q.messages, 10); n++) {
        const m = await ch.get(q.name, { noAck: false });
        if (!m) break;
        const headers = m.properties.headers ?? {};
        lines.push(
          `dead letter in ${q.name}: ${m.properties.type ?? m.fields.routingKey} ${m.properties.messageId ?? ''}, attempt ${String(headers['x-attempt'] ?? '?')}, delivery count ${String(headers['x-delivery-count'] ?? '-')}: ${String(headers['x-last-error'] ?? headers['x-first-death-reason'] ?? 'no error recorded')}`,
        );
      }
    }
  } finally {
    await conn.close();
  }
  return lines;
};

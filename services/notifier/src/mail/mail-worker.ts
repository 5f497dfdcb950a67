import type { Knex } from 'knex';
import { errorText, type Logger } from '@stablepay/platform';
import { claimDueEmails, markEmailFailed, markEmailsSent, type ClaimedEmail } from './mail-repo.js';
import { withJitter } from '../delivery/retry-schedule.js';
import type { AttachmentSource } from './attachments.js';
import { PermanentMailError, type MailTransport } from './transport.js';
import type { NotifierMetrics } from '../metrics.js';
import { loopWorker, type LoopWorker } from '@stablepay/platform';

export interface MailWorkerOptions {
  db: Knex;
  transport: MailTransport;
  from: string;
  logger: Logger;
  metrics: NotifierMetrics;
  pollMs: number;
  leaseMs: number;
  /** Delay before each retry; after the last, the message is `failed`. */
  retryDelaysMs: number[];
  /** Where attached documents are fetched from when a message is sent. */
  attachments: AttachmentSource;
  batchSize?: number;
}

/** Sends one message; true when the server accepted it (it is marked sent with its batch). */
const sendOne = async (o: MailWorkerOptions, m: ClaimedEmail): Promise<boolean> => {
  const took = o.metrics.emailSendDuration.startTimer();
  try {
    // Fetched at each attempt, so an owner that is down delays the message like SMTP trouble does.
    const attachments = m.attachment ? [await o.attachments.fetch(m.attachment)] : undefined;
    await o.transport.send({
      from: o.from,
      to: m.recipient,
      subject: m.subject,
      text: m.text,
      html: m.html,
      messageId: m.messageId,
      template: m.template,
      attachments,
    });
  } catch (err) {
    const permanent = err instanceof PermanentMailError;
    took({ outcome: permanent ? 'refused' : 'error' });
    const delay = permanent ? undefined : o.retryDelaysMs[m.attempts - 1];
    const retryIn = delay === undefined ? undefined : withJitter(delay, 0.2);
    await markEmailFailed(o.db, m, errorText(err), retryIn);
    o.metrics.emails.inc({ template: m.template, outcome: retryIn === undefined ? 'failed' : 'retry' });
    const meta = {
      emailId: m.id,
      template: m.template,
      attempt: m.attempts,
      retryInMs: retryIn,
      err: errorText(err),
    };
    if (retryIn === undefined) o.logger.error('e-mail not sent; giving up', meta);
    else o.logger.warn('e-mail not sent; will retry', meta);
    return false;
  }
  took({ outcome: 'sent' });
  return true;
};

/**
 * Sends the e-mail outbox: leases due messages, sends each (with its attachment, fetched now), marks
 * it sent under the lease. SMTP trouble is retried with backoff; a 5xx refusal fails the message at
 * once.
 */
export const mailWorker = (o: MailWorkerOptions): LoopWorker => {
  const batchSize = o.batchSize ?? 10;
  return loopWorker({
    name: 'mail-sender',
    intervalMs: o.pollMs,
    logger: o.logger,
    pass: async () => {
      const due = await claimDueEmails(o.db, batchSize, o.leaseMs);
      // Side by side, so a batch takes about one send's time and stays well inside its lease.
      const accepted = await Promise.all(due.map((m) => sendOne(o, m)));
      // Marked in one statement. A crash before it (accepted, not yet marked) sends those messages
      // once more when the lease ends, each with its same Message-ID.
      const marked = await markEmailsSent(
        o.db,
        due.filter((_, i) => accepted[i]),
      );
      for (const template of marked) o.metrics.emails.inc({ template, outcome: 'sent' });
      return due.length === batchSize;
    },
  });
};

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@stablepay/platform';
import type { NotifierConfig } from '../config.js';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per (event, template, recipient), so a resend after a crash can be recognised. */
  messageId: string;
  template: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A failure that no retry can fix (the server refused the recipient or the message for good). */
export class PermanentMailError extends Error {
  override readonly name = 'PermanentMailError';
}

const toMail = (m: MailMessage) => ({
  from: m.from,
  to: m.to,
  subject: m.subject,
  text: m.text,
  html: m.html,
  messageId: m.messageId,
  headers: { 'X-StablePay-Notification': m.template },
  ...(m.attachments?.length ? { attachments: m.attachments } : {}),
});

/**
 * SMTP from SMTP_URL (`smtp://`, `smtps://`, nodemailer options as query parameters). Connections
 * are pooled (at most 5, each reused for up to 100 messages): a payment's receipt and notice would
 * otherwise each pay a connection, a greeting, STARTTLS and AUTH. An idle connection is dropped
 * after MAIL_TIMEOUT_MS and opened again when needed; `?pool=false` in the URL sends one message per
 * connection.
 */
const smtpTransport = (url: string, timeoutMs: number): MailTransport => {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    kind: 'smtp',
    send: async (m) => {
      try {
        await transporter.sendMail(toMail(m));
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        // 5xx is the server's final word on this message; anything else (4xx, network) may pass later.
        if (code !== undefined && code >= 500 && code < 600) {
          throw new PermanentMailError(`SMTP ${code}: ${(err as Error).message}`);
        }
        throw err;
      }
    },
    close: () => transporter.close(),
  };
};

/**
 * Without SMTP (embedded runs): each message becomes `<dir>/<message key>.eml`, written to a temp
 * name and renamed, so a reader never sees half a file and a resend overwrites instead of adding.
 */
const fileTransport = (dir: string): MailTransport => {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // The folder is made at the first message, and again should it have gone since.
  let folderMade = false;
  const writeMessage = async (file: string, message: Buffer): Promise<void> => {
    if (!folderMade) await mkdir(dir, { recursive: true });
    folderMade = true;
    try {
      await writeFile(`${file}.tmp`, message);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dir, { recursive: true });
      await writeFile(`${file}.tmp`, message);
    }
    await rename(`${file}.tmp`, file);
  };
  return {
    kind: 'files',
    send: async (m) => {
      const info = await transporter.sendMail(toMail(m));
      const name = m.messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
      await writeMessage(join(dir, `${name}.eml`), info.message as Buffer);
    },
    close: () => transporter.close(),
  };
};

/** SMTP when SMTP_URL is set; otherwise `.eml` files under MAIL_DIR (the embedded stack). */
export const createMailTransport = (
  config: Pick<NotifierConfig, 'SMTP_URL' | 'MAIL_DIR' | 'MAIL_TIMEOUT_MS'>,
  logger: Logger,
): MailTransport => {
  if (config.SMTP_URL) return smtpTransport(config.SMTP_URL, config.MAIL_TIMEOUT_MS);
  logger.info('no SMTP_URL: e-mails are written as .eml files', { dir: config.MAIL_DIR });
  return fileTransport(config.MAIL_DIR);
};

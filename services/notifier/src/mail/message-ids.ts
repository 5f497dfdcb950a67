import { createHash } from 'node:crypto';

/** The domain of MAIL_FROM, for Message-IDs (`StablePay <no-reply@pay.example>` → `pay.example`). */
export const messageIdDomain = (from: string): string => {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from.trim());
  return m?.[1]?.toLowerCase() ?? 'stablepay.local';
};

/**
 * The same message always gets the same Message-ID, derived from its idempotency key: if a crash
 * between the server's acceptance and our mark makes us send it again, mail systems and readers
 * can recognise the copy.
 */
export const messageIdFor = (domain: string, eventId: string, template: string, recipient: string): string =>
  `<${createHash('sha256').update(`${eventId}\n${template}\n${recipient}`).digest('hex').slice(0, 40)}@${domain}>`;

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const TOKEN = /#\/confirm-email\?token=([0-9a-f-]{36}\.[A-Za-z0-9_-]{43})/;

/** A MIME body as text whatever its transfer encoding: quoted-printable soft breaks and escapes undone. */
const decodeQuotedPrintable = (raw: string): string =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    // The escapes are UTF-8 bytes: read them as such, so "ü" comes out as "ü".
    .replace(/[\u0080-\u00ff]+/g, (bytes) => Buffer.from(bytes, 'latin1').toString('utf8'));

const decodedBase64Blocks = (raw: string): string[] =>
  (raw.match(/(?:^[A-Za-z0-9+/=]{16,}\r?\n)+/gm) ?? []).map((block) =>
    Buffer.from(block.replace(/\s+/g, ''), 'base64').toString('utf8'),
  );

/** A message's text parts, decoded whatever their transfer encoding (quoted-printable or base64). */
export const decodedMailText = (message: string): string =>
  [decodeQuotedPrintable(message), ...decodedBase64Blocks(message)].join('\n');

/** The confirmation token of one .eml message to `email`, if it is a confirmation e-mail. */
const tokenIn = (message: string, email: string): string | undefined => {
  const headers = message.split(/\r?\n\r?\n/, 1)[0] ?? '';
  if (!/^x-stablepay-notification:\s*email_confirmation\s*$/im.test(headers)) return undefined;
  const to = /^to:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  if (!to.toLowerCase().includes(email.toLowerCase())) return undefined;
  return TOKEN.exec(decodedMailText(message))?.[1];
};

/**
 * The token of the newest confirmation link e-mailed to `email`, read from the .eml files the
 * notifier writes under MAIL_DIR when no SMTP server is configured (the embedded stack's mail).
 */
export const confirmationTokenFromMail = (mailDir: string, email: string): string | undefined => {
  if (!existsSync(mailDir)) return undefined;
  const files = readdirSync(mailDir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => join(mailDir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of files) {
    const token = tokenIn(readFileSync(file, 'utf8'), email);
    if (token) return token;
  }
  return undefined;
};

/**
 * Confirms the address through the public route with the link from the stack's mail directory,
 * waiting for the notifier to write it (it is sent shortly after registration).
 */
export const confirmEmailFromMail = async (
  gatewayUrl: string,
  mailDir: string,
  email: string,
  timeoutMs = 30_000,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  let token = confirmationTokenFromMail(mailDir, email);
  while (!token && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    token = confirmationTokenFromMail(mailDir, email);
  }
  if (!token) throw new Error(`no confirmation e-mail for ${email} under ${mailDir}`);
  const res = await fetch(`${gatewayUrl}/auth/email-confirmation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (res.status !== 200) throw new Error(`confirming ${email} failed: ${res.status} ${await res.text()}`);
};

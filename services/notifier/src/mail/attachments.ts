import { INTERNAL_TOKEN_HEADER, currentContext, signInternalToken } from '@stablepay/platform';
import { PDF_CONTENT_TYPE } from '@stablepay/contracts';
import type { AttachmentRef } from './mail-repo.js';
import { PermanentMailError } from './transport.js';

export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Fetches what a message attaches, at the moment it is sent. */
export interface AttachmentSource {
  fetch(ref: AttachmentRef): Promise<Attachment>;
}

/**
 * Invoice PDFs from the invoicing service's internal route (`GET /internal/invoices/:id/pdf`), with a
 * short-lived service token. An invoice it does not know can never be attached (permanent); anything
 * else (down, slow, a 5xx) is retried like an SMTP hiccup.
 */
export const invoicingAttachments = (o: {
  baseUrl: string;
  secret: string;
  timeoutMs: number;
}): AttachmentSource => ({
  fetch: async (ref) => {
    const base = o.baseUrl.endsWith('/') ? o.baseUrl : `${o.baseUrl}/`;
    const url = new URL(`internal/invoices/${encodeURIComponent(ref.id)}/pdf`, base);
    const headers: Record<string, string> = {
      accept: PDF_CONTENT_TYPE,
      [INTERNAL_TOKEN_HEADER]: signInternalToken(o.secret, { caller: 'service' }, 60),
    };
    const { correlationId } = currentContext();
    if (correlationId) headers['x-correlation-id'] = correlationId;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (err) {
      throw new Error(
        `invoicing unreachable for invoice ${ref.id}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status === 404)
      throw new PermanentMailError(`invoice ${ref.id} is unknown to the invoicing service`);
    if (!res.ok) throw new Error(`invoicing answered ${res.status} for invoice ${ref.id}`);
    if (res.headers.get('content-type') !== PDF_CONTENT_TYPE || body.subarray(0, 5).toString() !== '%PDF-')
      throw new Error(`invoicing answered something other than a PDF for invoice ${ref.id}`);
    return { filename: ref.fileName, content: body, contentType: PDF_CONTENT_TYPE };
  },
});

import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** The receiver's answer: status and headers, and at most `readLimit` bytes of its body. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** performance.now() when the status line and headers were in */
  headersAt: number;
  body: Buffer | null;
}

/** The answer window passed before an answer arrived (the name describeSendError knows). */
class AnswerTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/** The body reached the read limit; the rest is not read (the connection is dropped). */
class ReadLimitReached extends Error {}

/**
 * One POST through `dispatcher` (undici's dispatch interface, without the stream and abort-signal
 * machinery of `request`, which cost more than the exchange itself on a fast receiver). The whole
 * exchange is bounded by `timeoutMs`: when it passes, the result is settled at once (a timeout
 * before the answer, or the answer read so far) and the request is aborted, now if it is on a
 * connection already or as soon as it gets one. A request that fails before any answer rejects
 * with undici's error (or the connect-time lookup's); once the status is in, the status decides.
 */
export const postOnce = (
  dispatcher: Dispatcher,
  target: { origin: string; path: string },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  readLimit: number,
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let stop: Error | undefined;
    let answer: Answer | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!answer) return reject(err ?? new Error('no answer'));
      if (size > 0) answer.body = Buffer.concat(chunks).subarray(0, readLimit);
      resolve(answer);
    };
    const abort = (reason: Error) => {
      stop = reason;
      controller?.abort(reason);
    };
    const timer = setTimeout(() => {
      const timeout = new AnswerTimeout(`no answer within ${timeoutMs} ms`);
      settle(timeout);
      abort(timeout);
    }, timeoutMs);
    dispatcher.dispatch(
      { origin: target.origin, path: target.path, method: 'POST', headers, body },
      {
        onRequestStart(c) {
          controller = c;
          if (stop) c.abort(stop);
        },
        onResponseStart(_c, status, responseHeaders) {
          answer = { status, headers: responseHeaders, headersAt: performance.now(), body: null };
        },
        onResponseData(_c, chunk) {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= readLimit) {
            settle();
            abort(new ReadLimitReached());
          }
        },
        onResponseEnd() {
          settle();
        },
        onResponseError(_c, err) {
          settle(err);
        },
      },
    );
  });

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_TOKEN_HEADER, verifyInternalToken, type CallerKind } from '../auth/internal-token.js';
import { TEST_INTERNAL_SECRET } from './service-under-test.js';

/** What a double answers: a status and a body (an object goes out as JSON, a string as it is). */
export interface DoubleAnswer {
  status: number;
  body: unknown;
}

/** The envelope of a refusal, as every service writes it. */
export const refusal = (status: number, error: string): DoubleAnswer => ({
  status,
  body: { success: false, error, details: [] },
});

export interface RunningDouble {
  url: string;
  close(): Promise<void>;
}

/**
 * A real HTTP server standing in for one internal GET route of another service. `route` says
 * whether a request's URL is that route (its parameters, or undefined: 404); the internal token
 * is verified with `secret` as the services do, and `answer` gets the caller it names (undefined
 * when it does not verify) and decides the rest.
 */
export const startServiceDouble = async <P>(opts: {
  secret?: string;
  route: (url: URL) => P | undefined;
  answer: (params: P, caller: CallerKind | undefined, url: URL) => DoubleAnswer;
}): Promise<RunningDouble> => {
  const server: Server = createServer((req, res) => {
    const send = ({ status, body }: DoubleAnswer) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://double');
    const params = req.method === 'GET' ? opts.route(url) : undefined;
    if (params === undefined) return send(refusal(404, 'No route'));
    let caller: CallerKind | undefined;
    try {
      caller = verifyInternalToken(
        opts.secret ?? TEST_INTERNAL_SECRET,
        String(req.headers[INTERNAL_TOKEN_HEADER] ?? ''),
      ).caller;
    } catch {
      caller = undefined;
    }
    send(opts.answer(params, caller, url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

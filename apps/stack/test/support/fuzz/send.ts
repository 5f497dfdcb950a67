import { Agent, request } from 'node:http';
import type { FuzzRequest } from './requests.js';

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends every request over keep-alive connections, `concurrency` at a time, and hands each answer
 * to `check` as it arrives. A request the server cuts off (a body past the limit may be answered
 * before it is fully sent) still counts when its answer arrived.
 */
export const sendAll = async (
  baseUrl: (req: FuzzRequest) => string,
  requests: readonly FuzzRequest[],
  check: (req: FuzzRequest, answer: FuzzAnswer) => void,
  concurrency = 24,
): Promise<void> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      check(req, await sendOne(agent, baseUrl(req), req));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
};

const sendOne = (agent: Agent, baseUrl: string, req: FuzzRequest): Promise<FuzzAnswer> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    let answered: FuzzAnswer | undefined;
    const out = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers:
          req.body === undefined
            ? req.headers
            : { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answered = {
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          };
          resolve(answered);
        });
        res.on('error', reject);
      },
    );
    out.setTimeout(30_000, () =>
      out.destroy(new Error(`no answer in 30 s: ${req.method} ${req.path.slice(0, 120)}`)),
    );
    out.on('error', (err) => (answered ? resolve(answered) : reject(err)));
    out.end(req.body);
  });

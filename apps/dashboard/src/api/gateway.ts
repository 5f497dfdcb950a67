import { ApiError } from './errors.js';
import { requestLine, type Operation, type ResponseOf } from './operations.js';

/** The answer's `data`, and the message the gateway put beside it. */
export interface Answer<Op extends Operation> {
  data: ResponseOf<Op>;
  message?: string;
}

/** A call's parameters, query and body, as `RequestOf` types them for each operation. */
export interface Request {
  params?: object;
  query?: object;
  body?: object;
}

/** How a request travels, beside what the operation itself takes. */
export interface Transport {
  bearer?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

type Envelope<Op extends Operation> = {
  success?: boolean;
  data?: ResponseOf<Op>;
  message?: string;
  error?: string;
  details?: ApiError['details'];
};

const failure = (res: Response, json: { error?: string; details?: ApiError['details'] } | undefined) => {
  const retry = Number(res.headers.get('retry-after'));
  return new ApiError(
    res.status,
    json?.error ?? res.statusText,
    json?.details ?? [],
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
};

/** One call of an operation in the envelope; the parsed `data` (or nothing without one). */
export const send = async <Op extends Operation>(
  gatewayUrl: string,
  op: Op,
  request: Request,
  via: Transport = {},
): Promise<Answer<Op>> => {
  const { method, path } = requestLine(op, request);
  let res: Response;
  try {
    res = await fetch(new URL(path, gatewayUrl), {
      method,
      headers: {
        accept: 'application/json',
        ...(request.body ? { 'content-type': 'application/json' } : {}),
        ...(via.bearer ? { authorization: `Bearer ${via.bearer}` } : {}),
        ...(via.idempotencyKey ? { 'idempotency-key': via.idempotencyKey } : {}),
        ...via.headers,
      },
      body: request.body ? JSON.stringify(request.body) : undefined,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network');
  }
  const json = (await res.json().catch(() => undefined)) as Envelope<Op> | undefined;
  if (!res.ok || json?.success === false) throw failure(res, json);
  return { data: json?.data as ResponseOf<Op>, message: json?.message };
};

/** A bearer-token download of an operation's answer (an invoice PDF, a CSV export). */
export const fetchFile = (gatewayUrl: string, op: Operation, request: Request, bearer?: string) =>
  fetch(new URL(requestLine(op, request).path, gatewayUrl), {
    headers: { authorization: `Bearer ${bearer}` },
    credentials: 'omit',
    cache: 'no-store',
  });

/** The downloaded body, or the gateway's refusal as an ApiError. */
export const fileOf = async (res: Response): Promise<Blob> => {
  if (!res.ok) {
    const json = (await res.json().catch(() => undefined)) as { error?: string } | undefined;
    throw new ApiError(res.status, json?.error ?? res.statusText);
  }
  return res.blob();
};

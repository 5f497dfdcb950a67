import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { ErrorEnvelope } from '@stablepay/contracts';
import { AppError, errorStatus } from '../errors.js';
import type { Logger } from '../logger.js';

export const sendError = (res: Response, err: AppError): void => {
  if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
  const body: ErrorEnvelope = { success: false, error: err.message, details: err.details };
  res.status(err.status).json(body);
};

export const notFoundHandler: RequestHandler = (req: Request, res: Response) => {
  res.locals.routeLabel = 'not_found';
  sendError(res, new AppError('not_found', `No route for ${req.method} ${req.path}`));
};

/** body-parser errors carry a `type` and a client status; map them to the envelope. */
const fromParserError = (err: { type?: string; status?: number }): AppError | undefined => {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('bad_request', 'Malformed JSON body', [
        { path: '', message: 'Request body is not valid JSON', code: 'invalid_json' },
      ]);
    case 'entity.too.large':
      return new AppError('payload_too_large', 'Request body too large');
    case 'encoding.unsupported':
      return new AppError('unsupported_media_type', 'Unsupported Content-Encoding');
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'Unsupported body charset');
    case 'request.aborted':
      return new AppError('bad_request', 'Request aborted');
    default:
      return undefined;
  }
};

/**
 * Other client errors raised before a handler runs (a path that is not valid percent-encoding, a
 * body that does not match its Content-Encoding): the envelope with the client status, never a 500.
 */
const fromClientError = (err: {
  status?: number;
  statusCode?: number;
  name?: string;
}): AppError | undefined => {
  const status = err.status ?? err.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (err.name === 'URIError')
    return new AppError('bad_request', 'The URL path is not valid percent-encoding');
  if (status === 413) return new AppError('payload_too_large', 'Request body too large');
  if (status === 415) return new AppError('unsupported_media_type', 'Unsupported request body');
  return new AppError(
    'bad_request',
    'The request body could not be read (check Content-Encoding and Content-Length)',
  );
};

export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    let appErr: AppError;
    if (err instanceof AppError) appErr = err;
    else {
      const parsed =
        typeof err === 'object' && err !== null
          ? (fromParserError(err as { type?: string }) ?? fromClientError(err as { status?: number }))
          : undefined;
      if (parsed) appErr = parsed;
      else {
        // Never leak internals: the envelope says only that something failed, the log says what.
        logger.error('unhandled error', { err, method: req.method, path: req.path });
        appErr = new AppError('internal', 'Internal server error');
      }
    }
    if (appErr.status >= 500 && appErr.kind !== 'internal') {
      logger.warn('request failed', { status: appErr.status, error: appErr.message, path: req.path });
    }
    sendError(res, appErr);
  };

export { errorStatus };

import { AppError } from '@stablepay/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** Bodies of gateway-owned routes (credentials, names): small JSON. */
export const GATEWAY_BODY_LIMIT = 64 * 1024;
/** Largest body forwarded to a service. */
export const PROXY_BODY_LIMIT = 1024 * 1024;

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request body as received, kept when something needs its exact bytes (idempotency). */
    rawBody?: Buffer;
    /** The route's path with its parameters canonical (UUIDs in lower case); set by the router. */
    canonicalPath?: string;
  }
}

/** JSON for gateway-owned routes, keeping the raw bytes for the idempotency fingerprint. */
export const jsonBody = (limit = GATEWAY_BODY_LIMIT): RequestHandler =>
  express.json({
    limit,
    strict: false,
    verify: (_req, res, buf) => {
      (res as Response).locals.rawBody = Buffer.from(buf);
    },
  });

export const payloadTooLarge = (): AppError => new AppError('payload_too_large', 'Request body too large');

/**
 * Reads a forwarded body into `res.locals.rawBody` (bounded) when `wanted` says its bytes are needed
 * before anything is sent; the forward then sends those bytes. A body already read is not read again.
 */
export const bufferBodyWhen =
  (wanted: (req: Request) => boolean, limit = PROXY_BODY_LIMIT): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.rawBody || !wanted(req)) return next();
    if (Number(req.header('content-length') ?? 0) > limit) return next(payloadTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        res.setHeader('Connection', 'close');
        next(payloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      res.locals.rawBody = Buffer.concat(chunks);
      next();
    });
    req.on('error', (err) => {
      if (failed) return;
      failed = true;
      next(err);
    });
  };

/**
 * Forwarded bodies are streamed, except for a POST carrying an Idempotency-Key: its bytes are
 * needed to fingerprint the request before anything is sent, so it is read here (bounded).
 */
export const bufferForIdempotency = (limit = PROXY_BODY_LIMIT): RequestHandler =>
  bufferBodyWhen((req) => req.method === 'POST' && req.header('idempotency-key') !== undefined, limit);

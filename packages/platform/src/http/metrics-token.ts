import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Lets through only a scrape that carries `Authorization: Bearer <METRICS_TOKEN>`. Digests of equal
 * length are compared in constant time, so the answer's timing says nothing about the token.
 */
export const requireMetricsToken = (token: string): RequestHandler => {
  const expected = digest(token);
  return (req, res, next) => {
    const match = /^Bearer (.+)$/i.exec(req.header('authorization') ?? '');
    if (match && timingSafeEqual(digest(match[1]!.trim()), expected)) return next();
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    sendError(res, new AppError('unauthorized', 'Metrics need the metrics bearer token'));
  };
};

import type { Request, Response } from 'express';
import type { z } from 'zod';
import { validationError } from '../errors.js';

export const ok = <T>(res: Response, data: T, status = 200, message?: string): void => {
  res.status(status).json(message === undefined ? { success: true, data } : { success: true, message, data });
};

export const okMessage = (res: Response, message: string, status = 200): void => {
  res.status(status).json({ success: true, message });
};

/** Parses one part of a request, throwing the envelope's 400 with a detail per bad field. */
export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => {
  const r = schema.safeParse(req.body ?? {});
  if (!r.success) throw validationError(r.error, 'Body');
  return r.data;
};

export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => {
  const r = schema.safeParse(req.query ?? {});
  if (!r.success) throw validationError(r.error, 'Query');
  return r.data;
};

export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => {
  const r = schema.safeParse(req.params ?? {});
  if (!r.success) throw validationError(r.error, 'Path parameter');
  return r.data;
};

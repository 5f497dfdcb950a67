import type { Request, Response } from 'express';
import type { RequestMeta } from '../gateway-context.js';

export const requestMeta = (req: Request, res: Response): RequestMeta => ({
  ip: req.ip,
  userAgent: req.header('user-agent'),
  requestId: res.locals.requestId,
});

import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** API responses are data, never documents: nothing may load, run or frame them. */
export const apiSecurityHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    // The payment widget reads public routes cross-origin; CORS decides who may read. Credentials
    // travel in headers that a cross-origin embed cannot send, so embedding exposes nothing.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });

/**
 * The API explorer: swagger-ui's own scripts and styles come from this origin (no CDN); its
 * components set inline styles, and it renders data: images (icons).
 */
export const docsSecurityHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
  });

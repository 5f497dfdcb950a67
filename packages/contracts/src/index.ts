export * from './common.js';
export * from './envelope.js';
export * from './headers.js';
export * from './http/index.js';
export * from './webhook-payloads.js';
export * from './events/index.js';
export * from './routes.js';
export * from './openapi.js';

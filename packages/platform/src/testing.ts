export * from './testing/backends.js';
export * from './testing/vhost.js';

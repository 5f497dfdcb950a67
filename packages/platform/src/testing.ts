export * from './testing/backends.js';

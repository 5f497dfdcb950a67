export * from './stack.js';
export * from './demo.js';
export * from './secrets.js';
export * from './services.js';
export * from './process-stack.js';
export * from './mail-links.js';

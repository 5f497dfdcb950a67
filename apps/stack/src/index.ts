export * from './stack.js';
export * from './ports.js';
export * from './demo.js';
export * from './secrets.js';
export * from './services.js';
export * from './process-stack.js';
export * from './service-process.js';
export * from './mail-links.js';

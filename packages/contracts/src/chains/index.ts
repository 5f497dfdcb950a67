export * from './schema.js';
export * from './lookup.js';
export * from './presets.js';

/**
 * Explicit state machines: a table of named transitions, one guarded UPDATE per transition, events
 * written in the same transaction, and the outbox relay woken once it commits.
 */
export * from './transitions.js';
export * from './events.js';
export * from './guarded-update.js';
export * from './machine.js';
export * from './after-commit.js';

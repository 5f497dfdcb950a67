export * from './testing/backends.js';
export * from './testing/vhost.js';
export * from './testing/observe.js';
export * from './testing/service-under-test.js';
export * from './testing/service-process.js';
export * from './testing/service-double.js';

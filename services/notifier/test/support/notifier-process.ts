/**
 * The notifier as its own process, configured from the environment, for tests that kill it. Prints
 * `READY <url>` once it serves and consumes.
 */
import { quietLogger } from '@stablepay/platform/testing';
import { loadNotifierConfig, openDependencies, startNotifierService } from '../../src/index.js';

const config = loadNotifierConfig();
const logger = quietLogger('notifier-child');
const { deps } = await openDependencies(config, logger);
const service = await startNotifierService({ config, deps, port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${service.url}\n`);

import { runServiceMain } from '@stablepay/platform';
import { notifierService } from './service.js';

await runServiceMain(notifierService);

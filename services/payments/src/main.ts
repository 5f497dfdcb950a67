import { runServiceMain } from '@stablepay/platform';
import { paymentsService } from './service.js';

await runServiceMain(paymentsService);

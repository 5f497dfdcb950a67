import { runServiceMain } from '@stablepay/platform';
import { invoicingService } from './service.js';

await runServiceMain(invoicingService);

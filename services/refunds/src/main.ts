import { runServiceMain } from '@stablepay/platform';
import { refundsService } from './service.js';

await runServiceMain(refundsService);

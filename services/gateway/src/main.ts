import { runServiceMain } from '@stablepay/platform';
import { gatewayService } from './service.js';

await runServiceMain(gatewayService);

import type { ExampleTable } from './example.js';
import { byId, ok, sample } from './objects.js';

export const merchantsExamples: ExampleTable = {
  getMerchantWallet: {
    request: byId(sample.merchantId),
    responses: {
      200: ok({
        wallet: { id: sample.id, address: sample.merchantWallet, blockchain: 'ETH', chainId: sample.chainId },
      }),
    },
  },
  getMerchantInfo: {
    request: byId(sample.merchantId),
    responses: {
      200: ok({ name: sample.merchantName, blockchain: 'ETH', accepted_currencies: 'USDC,EURC' }),
    },
  },
};

import type { ExampleTable } from './example.js';
import { ok, sample } from './objects.js';

/** One wallet whose ledger and chain balances were compared; the API-key route and its twin show it. */
const reconciliation = {
  responses: {
    200: ok({
      checked_at: sample.at,
      wallets: [
        {
          blockchain: 'ETH',
          token: 'USDC',
          address: sample.merchantWallet,
          block_number: 1,
          ledger_balance: sample.ledgerAmount,
          onchain_balance: sample.amount,
          difference: '-12.500000',
          status: 'agrees',
        },
      ],
      discrepancies: 1,
    }),
  },
};

export const walletsExamples: ExampleTable = {
  getWalletBalance: {
    responses: {
      200: ok({
        wallet_id: sample.id,
        address: sample.merchantWallet,
        blockchain: 'ETH',
        balances: [{ token: 'USDC', amount: sample.amount }],
      }),
    },
  },
  getReconciliationApi: reconciliation,
  getReconciliation: reconciliation,
};

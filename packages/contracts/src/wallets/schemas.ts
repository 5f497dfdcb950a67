import { z } from 'zod';
import { successEnvelope } from '../shared/envelope.js';
import { Currency, DecimalString } from '../shared/money.js';
import { BlockchainName, EvmAddress, Uuid } from '../shared/scalars.js';

export const TokenBalance = z.object({
  token: Currency,
  amount: DecimalString,
});

/** GET /wallets/api/balance (served with `Cache-Control: no-store`). */
export const WalletBalance = z.object({
  wallet_id: Uuid,
  address: EvmAddress,
  blockchain: BlockchainName,
  balances: z.array(TokenBalance),
});
export type WalletBalance = z.infer<typeof WalletBalance>;
export const WalletBalanceResponse = successEnvelope(WalletBalance);
export type WalletBalanceResponse = z.infer<typeof WalletBalanceResponse>;

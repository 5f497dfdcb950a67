import { z } from 'zod';
import { BlockchainName, ChainId, EvmAddress, Uuid } from '../shared/scalars.js';

export const WalletAssignedData = z.object({
  merchantId: Uuid,
  walletId: Uuid,
  address: EvmAddress,
  blockchain: BlockchainName,
  chainId: ChainId,
});
export type WalletAssignedData = z.infer<typeof WalletAssignedData>;

import { z } from 'zod';
import { MerchantWalletData } from '../merchants/schemas.js';
import { successEnvelope } from '../shared/envelope.js';
import { BlockchainName, ChainId, EvmAddress, Uuid } from '../shared/scalars.js';
import { WalletBalance } from './schemas.js';

/** Service-to-service routes of the chain-watcher (never exposed by the gateway). */
export const InternalWalletParams = z.object({ merchantId: Uuid });
export const InternalWalletResponse = successEnvelope(MerchantWalletData);
export const InternalBalancesResponse = successEnvelope(WalletBalance);

/** One relayer: the account to keep funded with the chain's native coin. */
export const RelayerView = z.object({
  blockchain: BlockchainName,
  chainId: ChainId,
  address: EvmAddress,
  /** configured: RELAYER_PRIVATE_KEYS; derived: from the master seed */
  source: z.enum(['configured', 'derived']),
  /** native balance in wei as a decimal string; null when the chain cannot be reached */
  nativeBalanceWei: z.string().regex(/^\d+$/).nullable(),
});
export type RelayerView = z.infer<typeof RelayerView>;
export const RelayerListResponse = successEnvelope(z.object({ relayers: z.array(RelayerView) }));

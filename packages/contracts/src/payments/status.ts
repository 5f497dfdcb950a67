import { z } from 'zod';

export const PaymentStatus = z.enum([
  'completed',
  'pending',
  'pending_attestation',
  'ready_to_mint',
  'minted_pending_transfer',
  'failed',
]);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

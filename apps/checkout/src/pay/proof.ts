import type { Currency } from '@stablepay/contracts';
// The module path, not the package root: the page bundles this one small file, not every schema.
import {
  checkoutPaymentTypedData,
  type CheckoutPaymentProof,
} from '@stablepay/contracts/checkout/payment-proof';
import { signTypedData, type Eip1193Provider } from '../eth/wallet.js';

export { checkoutPaymentTypedData };

/**
 * The payer's consent to one checkout session, signed with EIP-712 (eth_signTypedData_v4) before the
 * transfer. The service links a payment to a session only with this signature from `fromAddress`, so
 * a stranger who sees the transfer cannot attach it to a session of their own. docs/api/README.md
 * describes the same structure for other clients.
 */
export const signCheckoutPayment = (
  provider: Eip1193Provider,
  p: CheckoutPaymentProof & { token: Currency },
): Promise<string> => signTypedData(provider, p.payer, checkoutPaymentTypedData(p));

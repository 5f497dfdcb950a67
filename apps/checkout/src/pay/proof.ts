import type { Currency } from '@stablepay/contracts';
import { signTypedData, type Eip1193Provider } from '../eth/wallet.js';

/**
 * The payer's consent to one checkout session, signed with EIP-712 (eth_signTypedData_v4) before the
 * transfer. The service links a payment to a session only with this signature from `fromAddress`, so
 * a stranger who sees the transfer cannot attach it to a session of their own. docs/api/README.md
 * describes the same structure for other clients.
 */
export const checkoutPaymentTypedData = (p: {
  sessionId: string;
  merchantId: string;
  payer: string;
  recipient: string;
  token: Currency;
  amount: bigint;
  sourceChainId: number;
}) => ({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    CheckoutPayment: [
      { name: 'sessionId', type: 'string' },
      { name: 'merchantId', type: 'string' },
      { name: 'payer', type: 'address' },
      { name: 'recipient', type: 'address' },
      { name: 'token', type: 'string' },
      { name: 'amount', type: 'uint256' },
      { name: 'sourceChainId', type: 'uint256' },
    ],
  },
  primaryType: 'CheckoutPayment',
  domain: { name: 'Stablepay Checkout', version: '1', chainId: p.sourceChainId },
  message: {
    sessionId: p.sessionId,
    merchantId: p.merchantId,
    payer: p.payer,
    recipient: p.recipient,
    token: p.token,
    amount: p.amount.toString(),
    sourceChainId: p.sourceChainId,
  },
});

export const signCheckoutPayment = (
  provider: Eip1193Provider,
  p: Parameters<typeof checkoutPaymentTypedData>[0],
): Promise<string> => signTypedData(provider, p.payer, checkoutPaymentTypedData(p));

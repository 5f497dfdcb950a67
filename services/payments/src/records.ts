import type {
  BlockchainName,
  CheckoutSessionStatus,
  Currency,
  Language,
  NetworkFeeBearer,
  PaymentFunding,
  PaymentStatus,
  TransferAuthorization,
} from '@stablepay/contracts';

/** What the service knows about a merchant (a projection of the gateway's merchant events). */
export interface MerchantRecord {
  merchantId: string;
  publicId: string;
  name: string;
  blockchain: BlockchainName;
  acceptedCurrencies: Currency[];
  wallet: { id: string; address: string; blockchain: BlockchainName; chainId: number } | null;
  /** `#rrggbb` for the checkout page, null for its own colour */
  accentColor: string | null;
  /** where the gateway serves the logo (relative to the API's base URL), null without one */
  logoUrl: string | null;
  /** the merchant's choice; null: the deployment's GASLESS_FEE_BEARER */
  networkFeeBearer: NetworkFeeBearer | null;
}

/** Amounts are exact 6-decimal strings ("12.500000"), never floats. */
export interface PaymentRecord {
  id: string;
  merchantId: string;
  txHash: string;
  amount: string;
  expectedAmount: string | null;
  receivedAmount: string | null;
  /** cross-chain: amount burned − received_amount, once known */
  cctpFeeAmount: string | null;
  currency: Currency;
  status: PaymentStatus;
  fromAddress: string;
  toAddress: string;
  sourceChain: BlockchainName;
  sourceChainId: number;
  destinationChain: BlockchainName | null;
  destinationChainId: number | null;
  isCrossChain: boolean;
  bridgeProvider: string | null;
  burnTxHash: string | null;
  mintTxHash: string | null;
  cctpMessageHash: string | null;
  cctpAttestationStatus: string | null;
  merchantTransferTxHash: string | null;
  feeQuote: Record<string, unknown> | null;
  sessionId: string | null;
  customerEmail: string;
  /** the checkout page's language, for the customer's e-mails; null: not given (English) */
  customerLanguage: Language | null;
  reference: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** the paying transfer's block time, once verified (same-chain and bridge-kit mints) */
  minedAt: Date | null;
  /** while a short same-chain session payment waits for the rest: when the window closes */
  awaitingTopUpUntil: Date | null;
  /** a transaction of the customer's, or a signed authorization the relay submits (gasless) */
  funding: PaymentFunding;
  /** gasless only: what the customer signed, and the fees the quote priced */
  gasless: GaslessTerms | null;
}

/** What a gasless payment was accepted on. Amounts are exact 6-decimal strings. */
export interface GaslessTerms {
  authorization: TransferAuthorization;
  networkFee: string;
  cctpFee: string;
  feeBearer: NetworkFeeBearer;
}

export interface CheckoutSessionRecord {
  id: string;
  merchantId: string;
  status: CheckoutSessionStatus;
  /** null for a variable-amount session */
  amount: string | null;
  currency: Currency;
  returnUrl: string;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  paymentId: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
  expiredAt: Date | null;
}

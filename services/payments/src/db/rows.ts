import { rowColumn, type Row } from '@stablepay/platform';
import { LanguageCode } from '@stablepay/contracts';
import type { CheckoutSessionRecord, GaslessTerms, MerchantRecord, PaymentRecord } from '../records.js';

export type { Row } from '@stablepay/platform';

const { json, date, dateOrNull, decimal, decimalOrNull, str } = rowColumn;
const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const toMerchant = (r: Row): MerchantRecord => ({
  merchantId: String(r.merchant_id),
  publicId: String(r.public_id),
  name: String(r.name),
  blockchain: r.blockchain as MerchantRecord['blockchain'],
  acceptedCurrencies: json<MerchantRecord['acceptedCurrencies']>(r.accepted_currencies),
  wallet: r.wallet_address
    ? {
        id: String(r.wallet_id),
        address: String(r.wallet_address),
        blockchain: r.wallet_blockchain as MerchantRecord['blockchain'],
        chainId: Number(r.wallet_chain_id),
      }
    : null,
  accentColor: str(r.accent_color),
  logoUrl: str(r.logo_url),
  networkFeeBearer:
    r.network_fee_bearer === 'merchant' || r.network_fee_bearer === 'customer' ? r.network_fee_bearer : null,
});

export const toPayment = (r: Row): PaymentRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  txHash: String(r.tx_hash),
  amount: decimal(r.amount),
  expectedAmount: decimalOrNull(r.expected_amount),
  receivedAmount: decimalOrNull(r.received_amount),
  cctpFeeAmount: decimalOrNull(r.cctp_fee_amount),
  currency: r.currency as PaymentRecord['currency'],
  status: r.status as PaymentRecord['status'],
  fromAddress: String(r.from_address),
  toAddress: String(r.to_address),
  sourceChain: r.source_chain as PaymentRecord['sourceChain'],
  sourceChainId: Number(r.source_chain_id),
  destinationChain: str(r.destination_chain) as PaymentRecord['destinationChain'],
  destinationChainId: int(r.destination_chain_id),
  isCrossChain: Boolean(r.is_cross_chain),
  bridgeProvider: str(r.bridge_provider),
  burnTxHash: str(r.burn_tx_hash),
  mintTxHash: str(r.mint_tx_hash),
  cctpMessageHash: str(r.cctp_message_hash),
  cctpAttestationStatus: str(r.cctp_attestation_status),
  merchantTransferTxHash: str(r.merchant_transfer_tx_hash),
  feeQuote: r.fee_quote === null || r.fee_quote === undefined ? null : json(r.fee_quote),
  sessionId: str(r.session_id),
  customerEmail: String(r.customer_email),
  customerLanguage: LanguageCode.safeParse(r.customer_language).data ?? null,
  reference: str(r.reference),
  description: str(r.description),
  metadata: json<Record<string, unknown>>(r.metadata ?? {}),
  failureReason: str(r.failure_reason),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  completedAt: dateOrNull(r.completed_at),
  minedAt: dateOrNull(r.mined_at),
  awaitingTopUpUntil: dateOrNull(r.awaiting_top_up_until),
  funding: r.funding === 'authorization' ? 'authorization' : 'transfer',
  gasless: toGaslessTerms(r),
});

const toGaslessTerms = (r: Row): GaslessTerms | null =>
  r.signed_authorization === null || r.signed_authorization === undefined
    ? null
    : {
        authorization: json<GaslessTerms['authorization']>(r.signed_authorization),
        networkFee: decimal(r.network_fee ?? 0),
        cctpFee: decimal(r.cctp_fee ?? 0),
        feeBearer: r.fee_bearer === 'merchant' ? 'merchant' : 'customer',
      };

export const toSession = (r: Row): CheckoutSessionRecord => ({
  id: String(r.id),
  merchantId: String(r.merchant_id),
  status: r.status as CheckoutSessionRecord['status'],
  amount: decimalOrNull(r.amount),
  currency: r.currency as CheckoutSessionRecord['currency'],
  returnUrl: String(r.return_url),
  cancelUrl: str(r.cancel_url),
  metadata: json<Record<string, string>>(r.metadata ?? {}),
  paymentId: str(r.payment_id),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
  expiresAt: date(r.expires_at),
  completedAt: dateOrNull(r.completed_at),
  expiredAt: dateOrNull(r.expired_at),
});

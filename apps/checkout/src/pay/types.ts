import type { Currency, GaslessQuote, PublicChain, PublicChains } from '@stablepay/contracts';
import type { Language } from '@stablepay/contracts/shared/languages';
import type { GatewayClient } from '../api.js';
import type { Eip1193Provider } from '../eth/wallet.js';
import type { TransferGas } from './gas.js';

/** What the merchant chose to look like: its logo (served by the gateway) and accent colour. */
export interface MerchantBranding {
  logoUrl?: string;
  accentColor?: string;
}

/** What is being paid, to whom: from a checkout session, or from the widget's options. */
export interface PaymentTarget {
  merchantId: string;
  merchantName: string;
  walletAddress: string;
  /** The merchant's chain: where same-chain payments go and cross-chain ones are minted. */
  merchantChain: PublicChain;
  currency: Currency;
  sessionId?: string;
  reference?: string;
  /** the merchant's logo and accent colour, when they chose them */
  branding?: MerchantBranding;
}

/** One way the connected wallet can pay: a token on a chain, straight or bridged. */
export interface PayOption {
  chain: PublicChain;
  token: Currency;
  crossChain: boolean;
  balance: bigint;
  /** the native gas the transfer path needs on each chain it sends on; undefined when unread */
  gas?: TransferGas;
  /** cross-chain: the most Circle's fast transfer takes, in USDC base units, on top of the amount */
  bridgeFee?: bigint;
}

export type StepKind =
  | 'switch'
  | 'proof'
  | 'sign'
  | 'transfer'
  | 'approve'
  | 'burn'
  | 'attest'
  | 'mint'
  | 'confirm'
  | 'record'
  | 'relay'
  | 'settle';
export type StepState = 'waiting' | 'active' | 'done' | 'failed';

export interface Step {
  kind: StepKind;
  state: StepState;
  chainId?: number;
  txHash?: string;
  /** base units this step moves, when it is not the payment's amount (a burn carries Circle's fee on top) */
  units?: string;
}

/**
 * A payment under way, kept in localStorage at every step so that a reload resumes it from what is
 * already on-chain instead of paying twice.
 */
export interface PendingPayment {
  key: string;
  kind: 'same-chain' | 'cross-chain' | 'qr' | 'gasless';
  account: string;
  sourceChainId: number;
  token: Currency;
  /** base units, as a decimal string of digits */
  amount: string;
  /**
   * What the transfer must move: on the QR path of a session the amount plus the session's QR tag;
   * cross-chain the burn, the amount plus the most Circle may take.
   */
  transferAmount?: string;
  email: string;
  /** First block to search for a transfer whose hash the page never got (a reload mid-request). */
  fromBlock: string;
  proof?: string;
  txHash?: string;
  approveTxHash?: string;
  mintTxHash?: string;
  attestation?: { message: string; attestation: string };
  /** gasless: the quote the customer saw and agreed to, and their signed authorization of its total */
  quote?: GaslessQuote;
  authorization?: SignedAuthorization;
  paymentId?: string;
  startedAt: number;
}

/** An EIP-3009 TransferWithAuthorization as the wallet signed it (integers as decimal strings). */
export interface SignedAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
  signature: string;
}

export interface PayContext {
  api: GatewayClient;
  chains: PublicChains;
  provider?: Eip1193Provider;
  target: PaymentTarget;
  /** The page's language: the customer's e-mails (receipt, refund) are written in it. */
  language: Language;
  /** Re-renders the progress list. */
  onStep(step: Step): void;
  save(pending: PendingPayment): void;
  signal: AbortSignal;
}

export interface PaymentOutcome {
  paymentId: string;
  txHash: string;
  status: 'completed' | 'failed';
  failureReason?: string;
  /** where the transaction is (its explorer link), when the page knows it */
  chainId?: number;
  /** gasless: the fees the customer saw and the total they authorised, for the receipt */
  fees?: QuoteFees;
}

/** A gasless quote's figures: what the customer saw before signing, and their receipt shows after. */
export type QuoteFees = Pick<
  GaslessQuote,
  'token' | 'amount' | 'networkFee' | 'cctpFee' | 'feeBearer' | 'total' | 'destinationChainId'
>;

import type { Currency, PublicChain, PublicChains } from '@stablepay/contracts';
import type { GatewayClient } from '../api.js';
import type { Eip1193Provider } from '../eth/wallet.js';

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
}

/** One way the connected wallet can pay: a token on a chain, straight or bridged. */
export interface PayOption {
  chain: PublicChain;
  token: Currency;
  crossChain: boolean;
  balance: bigint;
}

export type StepKind =
  'switch' | 'proof' | 'transfer' | 'approve' | 'burn' | 'attest' | 'mint' | 'confirm' | 'record' | 'settle';
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
  kind: 'same-chain' | 'cross-chain' | 'qr';
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
  paymentId?: string;
  startedAt: number;
}

export interface PayContext {
  api: GatewayClient;
  chains: PublicChains;
  provider?: Eip1193Provider;
  target: PaymentTarget;
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
}

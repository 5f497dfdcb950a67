export interface Withdrawal {
  id: string;
  amount: string;
  fee: string;
  net_amount: string;
  currency: string;
  blockchain: string;
  destination_address: string;
  status: 'requested' | 'processing' | 'completed' | 'failed';
  tx_hash: string | null;
  fee_tx_hash: string | null;
  failure_reason: string | null;
  invoice_id: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface WithdrawalPage {
  withdrawals: Withdrawal[];
  total: number;
  limit: number;
  offset: number;
}

export interface Invoice {
  id: string;
  invoice_number: string;
  issued_at: string;
  gross_amount: string;
  service_fee: string;
  service_fee_eur: string;
  tax_amount: string;
  net_amount: string;
  currency: string;
  status: 'issued' | 'rectified';
  blockchain: string;
  withdrawal_id: string;
  tax_case: 'domestic' | 'eu_consumer' | 'reverse_charge' | 'outside_scope';
  tax_rate: string;
  rectifies_invoice_id: string | null;
  rectified_by_invoice_id: string | null;
}

export interface BillingProfile {
  legal_name: string | null;
  address_line1: string | null;
  address_line2: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  language: string;
  updated_at: string | null;
}

export const INVOICE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;

/* The chain-watcher's tables (the ledger's are in ledger/migration.ts). */
export const MASTER_SEED = 'master_seed';
export const WALLETS = 'wallets';
export const VERIFICATIONS = 'verifications';
export const TX_CLAIMS = 'tx_claims';
export const UNCLAIMED_TRANSFERS = 'unclaimed_transfers';
export const CHAIN_CURSORS = 'chain_cursors';
export const TRANSFERS = 'transfers';
export const TRANSFER_ATTEMPTS = 'transfer_attempts';
export const RELAYER_NONCES = 'relayer_nonces';
export const CCTP_PAYMENTS = 'cctp_payments';
export const CCTP_RELAY_TRANSACTIONS = 'cctp_relay_transactions';
export const TOP_UP_VERIFICATIONS = 'top_up_verifications';
export const GASLESS_PAYMENTS = 'gasless_payments';
export const GASLESS_RELAY_TRANSACTIONS = 'gasless_relay_transactions';
export const GASLESS_GAS_USAGE = 'gasless_gas_usage';
export const GASLESS_GAS_QUOTES = 'gasless_gas_quotes';

import type { Knex } from 'knex';
import type { BlockchainName } from '@stablepay/contracts';
import { WALLETS } from '../migrations/tables.js';

export interface WalletRecord {
  id: string;
  merchantId: string;
  address: string;
  blockchain: BlockchainName;
  chainId: number;
  createdAt: Date;
}

interface WalletRow {
  id: string;
  merchant_id: string;
  address: string;
  blockchain: string;
  chain_id: number;
  created_at: Date;
}

const toRecord = (row: WalletRow): WalletRecord => ({
  id: row.id,
  merchantId: row.merchant_id,
  address: row.address,
  blockchain: row.blockchain as BlockchainName,
  chainId: row.chain_id,
  createdAt: row.created_at,
});

export interface NewWallet {
  id: string;
  merchantId: string;
  address: string;
  blockchain: BlockchainName;
  chainId: number;
  derivation: string;
}

/** Inserts the merchant's primary wallet; undefined when the merchant already has one. */
export const insertPrimaryWallet = async (
  trx: Knex.Transaction,
  w: NewWallet,
): Promise<WalletRecord | undefined> => {
  const result = (await trx.raw(
    `insert into ${WALLETS} (id, merchant_id, is_primary, address, blockchain, chain_id, derivation)
     values (?, ?, true, ?, ?, ?, ?)
     on conflict (merchant_id) where is_primary do nothing
     returning *`,
    [w.id, w.merchantId, w.address, w.blockchain, w.chainId, w.derivation],
  )) as { rows: WalletRow[] };
  const row = result.rows[0];
  return row ? toRecord(row) : undefined;
};

export const findPrimaryWallet = async (db: Knex, merchantId: string): Promise<WalletRecord | undefined> => {
  const row = (await db(WALLETS).where({ merchant_id: merchantId, is_primary: true }).first()) as
    WalletRow | undefined;
  return row ? toRecord(row) : undefined;
};

/** Every wallet held on one chain: the addresses the transfer scanner watches. */
export const walletsOnChain = async (db: Knex, chainId: number): Promise<WalletRecord[]> => {
  const rows = (await db(WALLETS).where({ chain_id: chainId }).orderBy('created_at')) as WalletRow[];
  return rows.map(toRecord);
};

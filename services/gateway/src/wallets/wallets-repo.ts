import type { Knex } from 'knex';

export interface MerchantWalletRow {
  merchant_id: string;
  wallet_id: string;
  address: string;
  blockchain: string;
  chain_id: number;
  assigned_at: Date;
  event_id: string;
}

/** Keeps the most recently assigned wallet; an older event arriving late changes nothing. */
export const upsertMerchantWallet = async (trx: Knex.Transaction, row: MerchantWalletRow): Promise<void> => {
  await trx('merchant_wallets')
    .insert(row)
    .onConflict('merchant_id')
    .merge()
    .where('merchant_wallets.assigned_at', '<=', row.assigned_at);
};

export const findMerchantWallet = async (
  db: Knex,
  merchantId: string,
): Promise<MerchantWalletRow | undefined> =>
  db<MerchantWalletRow>('merchant_wallets').where({ merchant_id: merchantId }).first();

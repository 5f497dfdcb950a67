import type { Knex } from 'knex';
import { findPrimaryWallet, type WalletRecord } from './wallets-repo.js';

/**
 * Primary wallets by merchant, remembered once read: a primary wallet is created once and never
 * changes, so a replica can keep it as long as it lives. Misses are not remembered (the wallet may
 * be created a moment later).
 */
export class WalletDirectory {
  private readonly known = new Map<string, WalletRecord>();

  constructor(private readonly db: Knex) {}

  async primary(merchantId: string): Promise<WalletRecord | undefined> {
    const cached = this.known.get(merchantId);
    if (cached) return cached;
    const wallet = await findPrimaryWallet(this.db, merchantId);
    if (wallet) this.known.set(merchantId, wallet);
    return wallet;
  }
}

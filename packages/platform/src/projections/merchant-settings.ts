import type { Db } from '../db/database.js';

/**
 * Writes what a merchant.settings_updated sets into a service's own copy of the merchant when it is
 * newer than the settings the row holds (`settings_version`): an older or re-delivered version
 * changes nothing. Answers whether the merchant is there at all: its merchant.created may still be
 * on the way, and the caller decides whether the settings wait for it.
 */
export const applyNewerSettings = async (
  db: Db,
  table: string,
  settings: { merchantId: string; version: number },
  columns: Record<string, unknown>,
): Promise<boolean> => {
  await db(table)
    .where({ merchant_id: settings.merchantId })
    .andWhere('settings_version', '<', settings.version)
    .update({ ...columns, settings_version: settings.version });
  return (await db(table).where({ merchant_id: settings.merchantId }).first('merchant_id')) !== undefined;
};

import type { Migration } from '@stablepay/platform';
import { MERCHANTS } from './tables.js';

/**
 * merchant.settings_updated, projected: what the checkout page shows of the merchant (accent colour,
 * logo) and who bears a gasless payment's network fee (null: GASLESS_FEE_BEARER). The version is the
 * gateway's, so a late, older copy of the event changes nothing.
 */
export const merchantSettingsMigration: Migration = {
  name: '0014_merchant_settings',
  async up(db) {
    await db.schema.alterTable(MERCHANTS, (t) => {
      t.text('accent_color');
      t.text('logo_url');
      t.text('network_fee_bearer');
      t.integer('settings_version').notNullable().defaultTo(0);
    });
  },
};

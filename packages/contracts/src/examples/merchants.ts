import type { ExampleTable } from './example.js';
import { byId, ok, sample } from './objects.js';

export const LOGO_URL = `/merchants/${sample.merchantId}/logo?v=9f2c4e1a7b3d5c60`;
const SETTINGS = {
  name: sample.merchantName,
  accent_color: '#0b5fff',
  logo: {
    url: LOGO_URL,
    content_type: 'image/png',
    width: 160,
    height: 64,
    bytes: 2048,
    updated_at: sample.at,
  },
  network_fee_bearer: 'merchant',
  language: 'de',
  updated_at: sample.at,
};

export const merchantsExamples: ExampleTable = {
  getMerchantWallet: {
    request: byId(sample.merchantId),
    responses: {
      200: ok({
        wallet: { id: sample.id, address: sample.merchantWallet, blockchain: 'ETH', chainId: sample.chainId },
      }),
    },
  },
  getMerchantInfo: {
    request: byId(sample.merchantId),
    responses: {
      200: ok({
        name: sample.merchantName,
        blockchain: 'ETH',
        accepted_currencies: 'USDC,EURC',
        logo_url: LOGO_URL,
        accent_color: '#0b5fff',
      }),
    },
  },
  getMerchantLogo: {
    request: { params: { id: sample.merchantId }, query: { v: '9f2c4e1a7b3d5c60' } },
    responses: {},
  },
  getMerchantSettings: { responses: { 200: { success: true, data: SETTINGS } } },
  updateMerchantSettings: {
    request: {
      body: { name: 'Acme Coffee', accent_color: '#0b5fff', network_fee_bearer: 'merchant', language: 'de' },
    },
    responses: { 200: { success: true, data: SETTINGS } },
  },
  uploadMerchantLogo: {
    // A whole PNG file (here of one pixel), base64-encoded.
    request: {
      body: {
        image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPgjv8PAAHiAWo4ZvmvAAAAAElFTkSuQmCC',
      },
    },
    responses: { 200: { success: true, data: SETTINGS } },
  },
  deleteMerchantLogo: {
    responses: { 200: { success: true, data: { ...SETTINGS, logo: null } } },
  },
};

import type { ExampleTable } from './example.js';

const MERCHANT = 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f';
const LOGO_URL = `/merchants/${MERCHANT}/logo?v=9f2c4e1a7b3d5c60`;
const SETTINGS = {
  name: 'Acme Coffee',
  accent_color: '#0b5fff',
  logo: {
    url: LOGO_URL,
    content_type: 'image/png',
    width: 160,
    height: 64,
    bytes: 2048,
    updated_at: '2026-11-27T10:15:00.000Z',
  },
  network_fee_bearer: 'merchant',
  updated_at: '2026-11-27T10:15:00.000Z',
};

export const merchantsExamples: ExampleTable = {
  getMerchantWallet: {
    request: {
      params: {
        id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          wallet: {
            id: '3f6c2a4e-8b1d-4c7a-9e2f-5a1b6c7d8e9f',
            address: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
            blockchain: 'ETH',
            chainId: 8453,
          },
        },
      },
    },
  },
  getMerchantInfo: {
    request: {
      params: {
        id: 'acme_live_0b6f3a2e-5d4c-4b1a-9e8f-7a6b5c4d3e2f',
      },
    },
    responses: {
      200: {
        success: true,
        data: {
          name: 'Acme Coffee',
          blockchain: 'ETH',
          accepted_currencies: 'USDC,EURC',
          logo_url: LOGO_URL,
          accent_color: '#0b5fff',
        },
      },
    },
  },
  getMerchantLogo: {
    request: { params: { id: MERCHANT }, query: { v: '9f2c4e1a7b3d5c60' } },
    responses: {},
  },
  getMerchantSettings: { responses: { 200: { success: true, data: SETTINGS } } },
  updateMerchantSettings: {
    request: { body: { name: 'Acme Coffee', accent_color: '#0b5fff', network_fee_bearer: 'merchant' } },
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

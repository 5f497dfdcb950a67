import type { ExampleTable } from './example.js';

export const chainsExamples: ExampleTable = {
  getPublicChains: {
    responses: {
      200: {
        success: true,
        data: {
          network: 'mainnet',
          chains: [
            {
              name: 'ETH',
              chainId: 8453,
              cctpDomain: 1,
              confirmations: 1,
              rpcUrls: ['https://shop.example/x'],
              tokens: {
                USDC: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
                EURC: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              },
              cctp: {
                tokenMessenger: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
                messageTransmitter: '0x5b38da6a701c568545dcfcb03fcb875f56beddc4',
              },
            },
          ],
          attestationUrl: 'https://shop.example/x',
        },
      },
    },
  },
};

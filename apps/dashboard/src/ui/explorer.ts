export { explorerAddressUrl, explorerTxUrl } from '@stablepay/contracts/chains/explorer-links';

export interface PublicChain {
  name: string;
  chainId: number;
}

import type { PublicChain } from '@stablepay/contracts';
import { useState } from 'preact/hooks';
import type { Translate } from '../i18n.js';
import { toDecimal } from '../money.js';
import { Qr } from './Qr.js';

/** EIP-681: a call of the token's transfer(address,uint256) on the chain, in base units. */
export const eip681 = (chain: PublicChain, token: string, to: string, amount: bigint): string =>
  `ethereum:${token}@${chain.chainId}/transfer?address=${to}&uint256=${amount}`;

/** For a customer whose wallet is not in this browser: everything to pay by hand, and the code. */
export const QrPanel = ({
  chain,
  currency,
  address,
  amount,
  t,
}: {
  chain: PublicChain;
  currency: 'USDC' | 'EURC';
  address: string;
  amount?: bigint;
  t: Translate;
}) => {
  const [copied, setCopied] = useState(false);
  const token = chain.tokens[currency]!;
  const copy = () =>
    navigator.clipboard
      ?.writeText(address)
      .then(() => setCopied(true))
      .catch(() => undefined);
  if (amount === undefined) return <p class="hint">{t('qrNeedsAmount')}</p>;
  const display = toDecimal(amount).replace(/0{1,4}$/, '');
  return (
    <div class="qr-panel">
      <p>{t('qrIntro')}</p>
      <Qr
        text={eip681(chain, token, address, amount)}
        label={t('qrCode', { amount: display, token: currency, chain: chain.name })}
      />
      <dl class="facts">
        <dt>{t('qrNetwork')}</dt>
        <dd data-qr-chain>
          {chain.name} ({chain.chainId})
        </dd>
        <dt>{t('qrToken')}</dt>
        <dd>
          {currency} <code class="addr">{token}</code>
        </dd>
        <dt>{t('qrAddress')}</dt>
        <dd>
          <code class="addr" data-qr-address>
            {address}
          </code>{' '}
          <button type="button" class="link" onClick={copy}>
            {copied ? t('copied') : t('copy')}
          </button>
        </dd>
        <dt>{t('qrAmount')}</dt>
        <dd data-qr-amount>
          {display} {currency}
        </dd>
      </dl>
    </div>
  );
};

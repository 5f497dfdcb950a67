import type { PublicChain } from '@stablepay/contracts';
import { getAddress } from 'ethers/address';
import { useState } from 'preact/hooks';
import { chainLabel } from '../chains.js';
import type { Messages, Translate } from '../i18n.js';
import { toDecimal } from '../money.js';
import { Qr } from './Qr.js';

/*
 * Loaded only when a customer asks for the payment code: the QR encoder and the address checksum
 * are most of its weight, and most customers pay from the browser's wallet.
 */

/** EIP-681: a call of the token's transfer(address,uint256) on the chain, in base units. */
export const eip681 = (chain: PublicChain, token: string, to: string, amount: bigint): string =>
  `ethereum:${token}@${chain.chainId}/transfer?address=${to}&uint256=${amount}`;

/**
 * A button that copies one value; its name says which value, and "Copied" appears beside it once done
 * (announced, while the button keeps the name it is found by).
 */
const CopyButton = ({ text, label, t }: { text: string; label: keyof Messages; t: Translate }) => {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard
      ?.writeText(text)
      .then(() => setCopied(true))
      .catch(() => undefined);
  return (
    <>
      <button type="button" class="link copy" aria-label={t(label)} onClick={copy} data-copy={text}>
        {t('copy')}
      </button>
      <span class="hint copied" role="status" data-copied={copied ? text : undefined}>
        {copied ? t('copied') : ''}
      </span>
    </>
  );
};

/** For a customer whose wallet is not in this browser: everything to pay by hand, and the code. */
export const QrPanel = ({
  chain,
  currency,
  address,
  amount,
  tag,
  t,
}: {
  chain: PublicChain;
  currency: 'USDC' | 'EURC';
  address: string;
  amount?: bigint;
  /** base units of the session's QR tag inside `amount`, when there is one */
  tag?: bigint;
  t: Translate;
}) => {
  if (amount === undefined) return <p class="hint">{t('qrNeedsAmount')}</p>;
  // Checksummed (EIP-55), as wallets show them: a customer comparing by eye sees the same letters.
  const token = getAddress(chain.tokens[currency]!);
  const to = getAddress(address);
  const display = toDecimal(amount).replace(/0{1,4}$/, '');
  const uri = eip681(chain, token, to, amount);
  return (
    <div class="qr-panel">
      <p>{t('qrIntro')}</p>
      {tag !== undefined && tag > 0n && (
        <p class="hint" data-qr-tag>
          {t('qrTagged', { tag: toDecimal(tag).replace(/0+$/, ''), token: currency })}
        </p>
      )}
      <Qr text={uri} label={t('qrCode', { amount: display, token: currency, chain: chainLabel(chain) })} />
      <a class="button primary wallet-link" href={uri} data-wallet-link>
        {t('openInWallet')}
      </a>
      <dl class="facts">
        <dt>{t('qrNetwork')}</dt>
        <dd data-qr-chain>
          {chainLabel(chain)} ({chain.chainId})
        </dd>
        <dt>{t('qrAmount')}</dt>
        <dd>
          <span data-qr-amount>
            {display} {currency}
          </span>{' '}
          <CopyButton text={toDecimal(amount)} label="copyAmount" t={t} />
        </dd>
        <dt>{t('qrToken')}</dt>
        <dd>
          {currency} <code class="addr">{token}</code> <CopyButton text={token} label="copyToken" t={t} />
        </dd>
        <dt>{t('qrAddress')}</dt>
        <dd>
          <code class="addr" data-qr-address>
            {to}
          </code>{' '}
          <CopyButton text={to} label="copyAddress" t={t} />
        </dd>
      </dl>
    </div>
  );
};

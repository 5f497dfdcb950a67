import { useState } from 'preact/hooks';
import { shortHex } from '../format.js';
import { useDashboard } from './context.js';
import { explorerAddressUrl, explorerTxUrl } from './explorer.js';

/** Copies a value to the clipboard, saying so to screen readers. */
export const CopyButton = ({ value, label }: { value: string; label: string }) => {
  const { t } = useDashboard();
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        class="secondary small"
        onClick={async () => {
          await navigator.clipboard.writeText(value).catch(() => undefined);
          setCopied(true);
          setTimeout(() => setCopied(false), 2_000);
        }}
      >
        {copied ? t('copied') : t('copy')}
        <span class="visually-hidden"> {label}</span>
      </button>
      <span class="visually-hidden" role="status">
        {copied ? t('copied') : ''}
      </span>
    </>
  );
};

/** A transaction hash or address: a link to the chain's explorer where there is one, and a copy button. */
export const OnChain = ({
  value,
  chainId,
  kind,
  label,
}: {
  value: string | null | undefined;
  chainId: number | undefined;
  kind: 'tx' | 'address';
  label: string;
}) => {
  const { t } = useDashboard();
  if (!value) return <span class="muted">—</span>;
  const url = kind === 'tx' ? explorerTxUrl(chainId, value) : explorerAddressUrl(chainId, value);
  return (
    <span class="onchain">
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" title={value}>
          <code>{shortHex(value)}</code>
          <span class="visually-hidden"> ({t('opensExplorer')})</span>
        </a>
      ) : (
        <code title={value} data-value={value}>
          {shortHex(value)}
        </code>
      )}
      <CopyButton value={value} label={label} />
    </span>
  );
};

import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/errors.js';
import type { Messages, Translate } from '../i18n.js';
import type { Loaded } from './use-load.js';

/** What a person reads for an API failure: the gateway's own message, or the network hint. */
export const errorText = (t: Translate, err: unknown): string => {
  if (err instanceof ApiError) {
    if (err.status === 0) return t('networkError');
    const detail = err.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    return detail ? `${err.message} (${detail})` : err.message;
  }
  return String(err);
};

export const Alert = ({
  children,
  kind = 'error',
}: {
  children: ComponentChildren;
  kind?: 'error' | 'ok';
}) => (
  <p class={`alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
    {children}
  </p>
);

/** The three states of something loaded; `children` renders the data. */
export const LoadView = <T,>({
  loaded,
  t,
  reload,
  children,
}: {
  loaded: Loaded<T>;
  t: Translate;
  reload?: () => void;
  children: (data: T) => ComponentChildren;
}) => {
  if (loaded.state === 'loading')
    return (
      <p class="muted" role="status">
        {t('loading')}
      </p>
    );
  if (loaded.state === 'error')
    return (
      <div>
        <Alert>{t('loadFailed', { error: errorText(t, loaded.error) })}</Alert>
        {reload && (
          <button type="button" class="secondary" onClick={reload}>
            {t('retry')}
          </button>
        )}
      </div>
    );
  return <>{children(loaded.data)}</>;
};

/**
 * A value of any length in a list or a header: one line cut with an ellipsis, the whole value in
 * its title (and read whole by screen readers); the detail view shows it in full.
 */
export const Clip = ({ value, wide = false }: { value: string | null | undefined; wide?: boolean }) =>
  value ? (
    <span class={wide ? 'clip wide' : 'clip'} title={value}>
      {value}
    </span>
  ) : (
    <>—</>
  );

export const StatusBadge = ({ status, t }: { status: string; t: Translate }) => {
  const key = `status_${status}` as keyof Messages;
  const label = key in STATUS_KEYS ? t(key) : status;
  return (
    <span class={`badge badge-${status}`} data-status={status}>
      {label}
    </span>
  );
};

const STATUS_KEYS: Record<string, true> = Object.fromEntries(
  [
    'pending',
    'completed',
    'failed',
    'pending_attestation',
    'ready_to_mint',
    'minted_pending_transfer',
    'processing',
    'cancelled',
    'requested',
    'issued',
    'rectified',
    'succeeded',
    'active',
    'on_hold',
    'disabled',
    'session_open',
    'session_complete',
    'session_expired',
  ].map((s) => [`status_${s}`, true]),
);

/**
 * The previous and next page of a list, with which of its rows are shown (`counted`); `children`
 * go at the end (the payments list's page size).
 */
export const Pager = ({
  t,
  offset,
  shown,
  total,
  pageSize,
  onOffset,
  counted = true,
  children,
}: {
  t: Translate;
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onOffset: (offset: number) => void;
  counted?: boolean;
  children?: ComponentChildren;
}) => (
  <nav class="pager" aria-label={t('pagination')}>
    {counted && <span>{t('showing', { from: offset + 1, to: offset + shown, total })}</span>}
    <button
      type="button"
      class="secondary"
      disabled={offset === 0}
      onClick={() => onOffset(Math.max(0, offset - pageSize))}
    >
      {t('previousPage')}
    </button>
    <button
      type="button"
      class="secondary"
      disabled={offset + shown >= total}
      onClick={() => onOffset(offset + pageSize)}
    >
      {t('nextPage')}
    </button>
    {children}
  </nav>
);

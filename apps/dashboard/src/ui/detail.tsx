import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { chainIdOf, loadChains } from './chains.js';
import { useDashboard } from './context.js';
import type { PublicChain } from './explorer.js';
import { useLoad } from './use-load.js';

/** One line of a detail list; `data` marks its value for the tests. */
export interface Detail {
  label: string;
  value: ComponentChildren;
  data?: { [attribute: `data-${string}`]: string | boolean };
}

/** Labelled values of one record; lines given as `false` (nothing to say) are left out. */
export const DetailList = ({
  items,
  compact = false,
}: {
  items: ReadonlyArray<Detail | false | null | undefined | ''>;
  compact?: boolean;
}) => (
  <dl class={compact ? 'details compact' : 'details'}>
    {items.map(
      (item) =>
        item && [
          <dt key={`${item.label}-t`}>{item.label}</dt>,
          <dd key={`${item.label}-d`} {...item.data}>
            {item.value}
          </dd>,
        ],
    )}
  </dl>
);

/**
 * A record that moves money on a chain, with that chain's id for explorer links, read again every
 * two seconds while its status is one of `live` (the transfer may still change it).
 */
export const useFollowedTransfer = <T extends { blockchain: string; status: string }>(
  load: () => Promise<T>,
  id: string,
  live: ReadonlySet<string>,
) => {
  const { session } = useDashboard();
  const [loaded, reload] = useLoad(async () => {
    const [data, chains] = await Promise.all([load(), loadChains(session).catch(() => [] as PublicChain[])]);
    return { ...data, chainId: chainIdOf(chains, data.blockchain) };
  }, [id]);
  const following = loaded.state === 'ready' && live.has(loaded.data.status);
  useEffect(() => {
    if (!following) return;
    const timer = setInterval(reload, 2_000);
    return () => clearInterval(timer);
  }, [following, reload]);
  return [loaded, reload] as const;
};

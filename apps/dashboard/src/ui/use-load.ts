import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';

export type Loaded<T> =
  { state: 'loading' } | { state: 'error'; error: ApiError } | { state: 'ready'; data: T };

/** Loads with the given function whenever a dependency changes; `reload` runs it again. */
export const useLoad = <T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setLoaded((prev) => (prev.state === 'ready' ? prev : { state: 'loading' }));
    load().then(
      (data) => live && setLoaded({ state: 'ready', data }),
      (err: unknown) =>
        live &&
        setLoaded({ state: 'error', error: err instanceof ApiError ? err : new ApiError(0, String(err)) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return [loaded, useCallback(() => setRound((r) => r + 1), [])];
};

import { useEffect, useMemo, useState } from 'preact/hooks';

/**
 * Hash routes (`#/payments/<id>?status=completed`): the static server serves one index.html, and
 * the path never reaches the server's logs or a Referer.
 */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

export const parseHash = (hash: string): Route => {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
};

export const href = (path: string, query?: Record<string, string | undefined>): string => {
  const q = new URLSearchParams(
    Object.entries(query ?? {}).filter((e): e is [string, string] => !!e[1]),
  ).toString();
  return `#${path}${q ? `?${q}` : ''}`;
};

export const navigate = (path: string, query?: Record<string, string | undefined>) => {
  window.location.hash = href(path, query);
};

export const useRoute = (): Route => {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    // The hash may have changed between the first render and this effect (effects run after the
    // paint): without this, that change would be missed and the page would stay where it began.
    onChange();
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return useMemo(() => parseHash(hash), [hash]);
};

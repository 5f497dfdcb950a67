import { useEffect, useState } from 'preact/hooks';

/** The current time, refreshed every `everyMs` while `active` (a countdown on screen). */
export const useNow = (everyMs: number, active = true): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return now;
};

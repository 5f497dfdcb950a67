import { useRef } from 'preact/hooks';

/**
 * One Idempotency-Key per operation the merchant means. Submitting the same body again (a retry
 * after a lost answer) reuses the key, so the gateway replays the first answer instead of acting
 * twice; a changed body is a new request and gets a new key (the gateway refuses a key reused with
 * another body). After a success the next submit starts afresh.
 */
export const useIdempotencyKey = () => {
  const current = useRef<{ key: string; body: string }>();
  return {
    keyFor(body: unknown): string {
      const text = JSON.stringify(body);
      if (current.current?.body !== text) current.current = { key: crypto.randomUUID(), body: text };
      return current.current.key;
    },
    done(): void {
      current.current = undefined;
    },
  };
};

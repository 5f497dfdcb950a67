import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertSafeKey, type InvoiceStorage } from './storage.js';

/**
 * PDFs as files under one directory (the embedded stack's `var/invoices`). Written to a temporary
 * name and renamed, so a reader never sees half a file.
 */
export const localStorage = (dir: string): InvoiceStorage => {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(root, key);
  };
  return {
    kind: 'local',
    put: async (key, pdf) => {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${randomUUID()}.tmp`;
      await writeFile(tmp, pdf);
      await rename(tmp, path);
    },
    get: async (key) => {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    check: async () => {
      await mkdir(root, { recursive: true });
      await stat(root);
    },
  };
};

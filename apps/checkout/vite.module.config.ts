import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** widget.mjs: the loader as an ES module for merchants who bundle it. */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2020',
    lib: {
      entry: resolve(import.meta.dirname, 'src/widget/loader.ts'),
      formats: ['es'],
      fileName: () => 'widget.mjs',
    },
  },
});

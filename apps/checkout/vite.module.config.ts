import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** widget/dist/widget.mjs: the loader as an ES module for merchants who bundle it (@stablepay/widget). */
export default defineConfig({
  // The package holds the module only (public/ goes to the page's dist).
  publicDir: false,
  build: {
    outDir: 'widget/dist',
    emptyOutDir: true,
    target: 'es2020',
    lib: {
      entry: resolve(import.meta.dirname, 'src/widget/loader.ts'),
      formats: ['es'],
      fileName: () => 'widget.mjs',
    },
  },
});

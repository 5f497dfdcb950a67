import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The hosted page (index.html) and the document the widget frames (embed.html) share one bundle.
 * Relative asset URLs, so one build serves under any path. No inline script or style, for the CSP.
 */
export default defineConfig({
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        embed: resolve(import.meta.dirname, 'embed.html'),
      },
    },
  },
});

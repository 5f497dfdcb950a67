import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The widget's two builds beside the page: widget.js for a script tag (an IIFE defining
 * window.StablepayCheckout) and the @stablepay/widget module for bundlers (`import { open } from '@stablepay/widget'`).
 */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2020',
    lib: {
      entry: {
        widget: resolve(import.meta.dirname, 'src/widget/script.ts'),
      },
      formats: ['iife'],
      name: 'StablepayCheckoutWidget',
      fileName: () => 'widget.js',
    },
  },
});

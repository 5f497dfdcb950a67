import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'var/**', 'packages/sdk/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The web pages run in browsers: their globals, not Node's. The stack is the Node composition root.
    files: ['apps/*/src/**', 'apps/*/public/**'],
    ignores: ['apps/stack/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // A function past one screen hides its steps: name them. Components of the web pages run longer.
    files: ['services/*/src/**', 'packages/*/src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['apps/*/src/**', 'apps/*/*/src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },
  {
    files: [
      '**/test/**',
      'bench/**',
      'scripts/**',
      'apps/*/scripts/**',
      'apps/stack/src/**',
      'packages/platform/src/testing/**',
    ],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
      // Response bodies in tests are checked field by field against the spec, not typed.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);

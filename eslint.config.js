import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { builtinModules } from 'node:module';
import ts from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const ipcOnlyInShell = [
  {
    selector: "MemberExpression[object.name='ipcMain'], MemberExpression[object.name='ipcRenderer']",
    message: 'ipcMain/ipcRenderer belong in src-main/shell and src-preload only.',
  },
];

const rawOpenExternal = {
  selector: "CallExpression[callee.property.name='openExternal']",
  message: 'Open links only through openExternalSafely() in src-main/shell/external-links.ts.',
};

// What src-main and src-preload may import (the layers, no cycles, electron only in the shell) is checked
// by dependency-cruiser: .dependency-cruiser.cjs, `npm run lint:layers`. The renderer's imports are checked here.
export default ts.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  prettier,
  ...svelte.configs.prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...ipcOnlyInShell, rawOpenExternal],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  // The renderer is a sandboxed web page: no electron, no Node built-ins.
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer talks to main only through window.plugboard.' },
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'The renderer runs in a sandboxed page: no Node built-ins.',
            })),
          ],
          patterns: [
            {
              group: ['electron/*', '../src-main/*', '../../src-main/*', '**/src-main/**'],
              message: 'The renderer may not import main-process code.',
            },
          ],
        },
      ],
    },
  },
  // The shell and the preload are where IPC lives.
  {
    files: ['src-main/shell/**', 'src-preload/**'],
    rules: { 'no-restricted-syntax': ['error', rawOpenExternal] },
  },
  {
    files: ['src-main/shell/external-links.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Tests of the other folders use the Core as the doors do, through its public files (src-main/core's
  // index.ts, saved-core.ts, config.ts, store.ts: .dependency-cruiser.cjs, core-surface); test/core tests its rooms.
  {
    files: ['test/**'],
    ignores: ['test/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: 'src-main/core/[^/]+/',
              message:
                'Import the Core through src-main/core/index.ts, saved-core.ts, config.ts or store.ts.',
            },
          ],
        },
      ],
    },
  },
);

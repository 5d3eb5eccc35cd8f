import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { builtinModules } from 'node:module';
import ts from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const noElectron = {
  paths: [{ name: 'electron', message: 'Only src-main/shell may import electron: the Core knows nothing of its shell.' }],
  patterns: [{ group: ['electron/*'], message: 'Only src-main/shell may import electron.' }],
};

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
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs in a sandboxed page: no Node built-ins.' })),
          ],
          patterns: [{ group: ['electron/*', '../src-main/*', '../../src-main/*', '**/src-main/**'], message: 'The renderer may not import main-process code.' }],
        },
      ],
    },
  },
  // Layers below the shell never touch electron.
  {
    files: ['src-main/core/**', 'src-main/dli/**', 'src-main/emulator/**', 'src-main/discovery/**', 'src-main/secrets/**', 'src-main/web/**', 'src-main/cli/**'],
    rules: { 'no-restricted-imports': ['error', noElectron] },
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
);

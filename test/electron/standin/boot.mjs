/**
 * The Electron stand-in's entry: `node test/electron/standin/boot.mjs <appDir>` does what `electron
 * <appDir>` does — reads the app's package.json and runs its `main` (the BUILT out/main/index.js) — with
 * the specifier `electron` resolved to the stand-in (Node's module.register resolve hook). The stand-in's
 * own TypeScript is loaded through a namespaced tsx, so the app itself runs on plain Node resolution.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register as registerTsx } from 'tsx/esm/api';

const appDir = resolve(process.argv[2] ?? '.');
const tsx = registerTsx({ namespace: 'plugboard-electron-stand-in' });
const standIn = await tsx.import('./electron.ts', import.meta.url);
const electron = await standIn.createElectron({ appDir });
globalThis.__plugboardElectronStandIn = electron.modules;
register('./electron-hook.mjs', import.meta.url, {
  data: { facade: new URL('./electron-facade.mjs', import.meta.url).href },
});
const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
await import(pathToFileURL(join(appDir, pkg.main)).href);
// Electron emits `ready` once the main script has run.
electron.start();

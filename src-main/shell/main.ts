import { startElectronShell } from './lifecycle';

// Built to out/main/index.js; the preload and renderer are resolved from this directory.
startElectronShell({ mainDir: import.meta.dirname });

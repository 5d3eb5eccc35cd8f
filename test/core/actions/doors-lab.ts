/**
 * One Core with every door open onto it, for walking the doors against the switch rules
 * (switch-rules-doors.test.ts): the machine's Core on a config folder (its socket for the command line),
 * the JSON API and its link with an operator's and an observer's token (and an operator's of tag farm),
 * pdudaemon over HTTP and TCP (its clients from 127.0.0.2 named farm, an operator of tag farm), the
 * web shell, and the tray with a stand-in Electron. One emulated unit "Bench A" (alias bench-a), every
 * outlet on; a group and a sequence of its outlet 1.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfirmRequest, Group } from '../../../src-preload/contract';
import type { Core, Notice } from '../../../src-main/core/index';
import { openSavedCore } from '../../../src-main/core/saved-core';
import { startEmulator, type RunningEmulator } from '../../../src-main/emulator';
import { coreSocketPath } from '../../../src-main/link';
import { MemorySecretStore } from '../../../src-main/secrets';
import { startApiListener } from '../../../src-main/serve/api';
import { listenCoreSocket } from '../../../src-main/serve/core-socket';
import { ServiceMetrics } from '../../../src-main/serve/metrics';
import { listenPdudaemon } from '../../../src-main/serve/pdudaemon-server';
import { parseTokens, resolveTokenScopes, type Token } from '../../../src-main/serve/tokens';
import { parseAllow, type ClientNetworks } from '../../../src-main/serve/network';
import { resolveAllowScopes } from '../../../src-main/serve/allowed-clients';
import { PlugboardTray, type TrayElectron } from '../../../src-main/shell/tray';
import { startWebShell } from '../../../src-main/web/server';
import { cleanEnv } from '../../cli/run-cli';
import { standInRenderer } from '../../web/web-helpers';

export const OPERATOR_SECRET = 'operator-secret-0123456789abcdef';
export const OBSERVER_SECRET = 'observer-secret-0123456789abcdef';
/** A token, and pdudaemon's clients from FARM_ADDRESS, both named farm: operators of tag farm (Bench A has none). */
export const FARM_SECRET = 'farm-secret-0123456789abcdef0123';
export const FARM_ADDRESS = '127.0.0.2';

export interface DoorsLab {
  emu: RunningEmulator;
  core: Core;
  controllerId: string;
  group: Group;
  sequence: Group;
  /** The JSON API's origin (its link too). */
  api: string;
  pdudaemonPort: number;
  web: { url: string; token: string };
  tray: PlugboardTray;
  /** What the tray told the person, and what it asked the window to confirm. */
  notices: Notice[];
  confirms: ConfirmRequest[];
  /** A `plugboard` command's environment: this config folder, no keychain. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** The tray's Electron, drawing nothing. */
const electron = {
  Tray: class {
    setContextMenu() {}
    setImage() {}
    setToolTip() {}
    destroy() {}
  },
  Menu: { buildFromTemplate: (template: unknown) => template },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
} as unknown as TrayElectron;

export async function doorsLab(): Promise<DoorsLab> {
  const closing: (() => Promise<unknown>)[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'plugboard-doors-'));
  closing.push(async () => rmSync(scratch, { recursive: true, force: true }));
  const emu = await startEmulator({ password: '1234', initialStates: Array<boolean>(8).fill(true) });
  closing.push(() => emu.close());
  const configDir = join(scratch, 'config');
  const core = await openSavedCore({
    shell: 'test',
    version: '0',
    configDir,
    secrets: new MemorySecretStore(),
    log: () => undefined,
  });
  closing.push(() => core.dispose());
  const { id } = await core.handlers['controllers/add']({
    url: emu.url,
    name: 'Bench A',
    auth: { kind: 'digest', user: 'admin', password: '1234' },
  });
  await core.handlers['controllers/update']({ id, alias: 'bench-a' });
  const group = await core.handlers['groups/save']({
    name: 'Rack',
    members: [{ controllerId: id, outlet: 1 }],
  });
  const sequence = await core.handlers['sequences/save']({
    name: 'Power-up',
    steps: [{ controllerId: id, outlets: [1], wait: { kind: 'delay', seconds: 0 } }],
  });

  const socket = await listenCoreSocket(core, coreSocketPath(configDir), () => undefined);
  closing.push(() => socket.close(1000));
  const tokens = resolveTokenScopes(
    parseTokens(
      `ops[operator]:${OPERATOR_SECRET}\nviewer[observer]:${OBSERVER_SECRET}\nfarm[operator tags=farm]:${FARM_SECRET}\n`,
      'tokens',
    ) as Token[],
    [],
    'tokens',
  ) as Token[];
  const api = await startApiListener({
    core,
    spec: { name: 'api', host: '127.0.0.1', port: 0 },
    allow: null,
    tokens,
    hostNames: [],
    tls: null,
    metrics: new ServiceMetrics(),
    log: () => undefined,
  });
  closing.push(() => api.close(1000));
  const allow = parseAllow(`farm=${FARM_ADDRESS}[operator tags=farm]`) as ClientNetworks;
  const pdudaemon = await listenPdudaemon(core, {
    port: 0,
    log: () => undefined,
    confirmTimeoutMs: 20_000,
    allow: resolveAllowScopes(allow, []) as ClientNetworks,
  });
  closing.push(() => pdudaemon.close());
  const rendererDir = await standInRenderer();
  closing.push(async () => rmSync(rendererDir, { recursive: true, force: true }));
  const web = await startWebShell({ core, rendererDir, log: () => undefined });
  closing.push(() => web.close());
  const notices: Notice[] = [];
  const confirms: ConfirmRequest[] = [];
  const unsubscribe = core.subscribe(
    (name, payload) => name === 'ui/confirm' && confirms.push(payload as ConfirmRequest),
  );
  closing.push(async () => unsubscribe());
  const tray = new PlugboardTray({
    electron,
    core,
    iconDir: '/icons',
    window: { show: () => undefined, hide: () => undefined, isVisible: () => true },
    quit: () => undefined,
    log: () => undefined,
    notify: (notice) => notices.push(notice),
  });
  closing.push(async () => tray.dispose());

  return {
    emu,
    core,
    controllerId: id,
    group,
    sequence,
    api: /api: (http:\/\/[^/]+)\//.exec(api.lines[0]!)![1]!,
    pdudaemonPort: pdudaemon.port,
    web: { url: web.url, token: web.token },
    tray,
    notices,
    confirms,
    env: cleanEnv({ PLUGBOARD_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }),
    async close() {
      for (const close of closing.reverse()) await close();
    },
  };
}

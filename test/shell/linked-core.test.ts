/**
 * The desktop app over a running service (shell/linked-core.ts): the window's and tray's calls reach the
 * service's Core through the real socket, recorded as this user at the window or tray door.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConfirmRequest } from '../../src-preload/contract';
import { coreSocketPath, findRunningCore } from '../../src-main/link';
import { listenCoreSocket, type CoreSocket } from '../../src-main/serve/core-socket';
import { coreOverLink } from '../../src-main/shell/linked-core';
import { addController, cleanUp, emulator, newCore } from '../core/harness';

const sockets: CoreSocket[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close(1_000)));
  await cleanUp();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')("the app over a service's Core", () => {
  it('switches through the service as the window and the tray, and keeps confirmations local', async () => {
    const emu = await emulator();
    const service = newCore();
    const { id } = await addController(service, emu, { name: 'Bench A' });
    const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-linked-'));
    dirs.push(dir);
    sockets.push(await listenCoreSocket(service.core, coreSocketPath(dir), () => undefined));

    const core = coreOverLink((await findRunningCore(dir))!, 'desk-user');
    const confirms: ConfirmRequest[] = [];
    core.subscribe((name, payload) => {
      if (name === 'ui/confirm') confirms.push(payload as ConfirmRequest);
    });
    await core.handlers['outlets/set']({ controllerId: id, outlets: [2], on: false });
    await core.handlersAs('tray')['outlets/set']({ controllerId: id, outlets: [4], on: false });
    await vi.waitFor(
      () => {
        const done = service.activity().filter((e) => e.result === 'ok');
        expect(done.find((e) => e.outlet === 2)).toMatchObject({ source: 'window', who: 'desk-user' });
        expect(done.find((e) => e.outlet === 4)).toMatchObject({ source: 'tray', who: 'desk-user' });
      },
      { timeout: 15_000 },
    );
    expect(emu.device.outlet(1).state).toBe(false);

    const request = {
      id: 'r1',
      title: 'Turn off?',
      message: 'Router is critical.',
      action: { name: 'outlets/set', input: {} },
    } as unknown as ConfirmRequest;
    core.requestConfirmation(request);
    expect(confirms).toEqual([request]);
    // The service's other clients are not asked: nothing reached its Core.
    expect(service.all('ui/confirm')).toEqual([]);
    await core.dispose();
  });
});

/**
 * The Core's socket, both ends for real: a Core with an emulated controller behind
 * listenCoreSocket (what `plugboard serve` runs), and the link the desktop app and the CLI use.
 */
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, ControllerState } from '../../src-preload/model';
import { connectCore, findRunningCore, coreSocketPath, type CoreLink } from '../../src-main/link';
import { listenCoreSocket, type CoreSocket } from '../../src-main/serve/core-socket';
import { addController, cleanUp, emulator, newCore } from '../core/harness';

const dirs: string[] = [];
const links: CoreLink[] = [];
const sockets: CoreSocket[] = [];

afterEach(async () => {
  await Promise.all(links.splice(0).map((l) => l.close()));
  await Promise.all(sockets.splice(0).map((s) => s.close(1_000)));
  await cleanUp();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-link-'));
  dirs.push(dir);
  return dir;
}

async function servedCore() {
  const emu = await emulator();
  const h = newCore();
  const summary = await addController(h, emu, { name: 'Bench A' });
  const dir = scratch();
  sockets.push(await listenCoreSocket(h.core, coreSocketPath(dir), () => undefined));
  return { emu, h, summary, dir };
}

describe('where the Core socket is', () => {
  it('is core.sock in the config folder, or on Windows a named pipe named after the folder', () => {
    expect(coreSocketPath('/home/ada/.config/Plugboard', 'linux')).toBe(
      '/home/ada/.config/Plugboard/core.sock',
    );
    const pipe = coreSocketPath('C:\\Users\\Ada\\AppData\\Roaming\\Plugboard', 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\plugboard-core-[0-9a-f]{32}$/);
    // Windows folder names ignore case: the same folder, the same pipe; another folder, another pipe.
    expect(coreSocketPath('c:\\users\\ada\\appdata\\roaming\\plugboard', 'win32')).toBe(pipe);
    expect(coreSocketPath('C:\\Users\\Bob\\AppData\\Roaming\\Plugboard', 'win32')).not.toBe(pipe);
  });
});

describe.skipIf(process.platform === 'win32')('the Core socket', () => {
  it('finds no Core where none runs, and none behind a socket file nobody listens on', async () => {
    const dir = scratch();
    expect(await findRunningCore(dir)).toBeNull();
    const served = await listenCoreSocket(newCore().core, coreSocketPath(dir), () => undefined);
    const link = await findRunningCore(dir);
    expect(link).not.toBeNull();
    await link!.close();
    await served.close(1_000);
    expect(await findRunningCore(dir)).toBeNull();
    // A service that was killed leaves its socket file behind: nothing answers there, so no Core runs.
    // Left behind here without killing anything: a listener's socket file moved to the Core's place
    // stays when the listener closes (it removes only the name it listened on).
    const listening = `${coreSocketPath(dir)}.old`;
    const killed = createServer();
    await new Promise<void>((resolve) => killed.listen(listening, resolve));
    renameSync(listening, coreSocketPath(dir));
    await new Promise((resolve) => killed.close(resolve));
    expect(statSync(coreSocketPath(dir)).isSocket()).toBe(true);
    expect(await findRunningCore(dir)).toBeNull();
    // The next service (holding the Core lock) replaces the stale socket.
    sockets.push(await listenCoreSocket(newCore().core, coreSocketPath(dir), () => undefined));
    const relinked = await findRunningCore(dir);
    expect(relinked).not.toBeNull();
    await relinked!.close();
  });

  it('is a socket only its owner may open (mode 0600)', async () => {
    const { dir } = await servedCore();
    const stat = statSync(coreSocketPath(dir));
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('answers calls, switches the unit, and records who acted through which door', async () => {
    const { emu, h, summary, dir } = await servedCore();
    const link = (await findRunningCore(dir))!;
    links.push(link);
    const added: ActivityEntry[] = [];
    link.subscribe((name, payload) => {
      if (name === 'activity/added') added.push(payload as ActivityEntry);
    });
    const cli = link.handlersAs({ door: 'cli', who: 'alice' });
    expect((await cli['controllers/list']({})).map((c) => c.name)).toEqual(['Bench A']);

    const result = await cli['outlets/set']({ controllerId: summary.id, outlets: [3], on: false });
    expect(result.failed).toEqual([]);
    await vi.waitFor(() => expect(emu.device.outlet(2).physicalState).toBe(false), { timeout: 15_000 });
    // The event reached the link, and the Core's own log says the CLI's alice did it.
    await vi.waitFor(() => expect(added.some((e) => e.outlet === 3 && e.result === 'ok')).toBe(true), {
      timeout: 15_000,
    });
    const entry = h.activity().find((e) => e.outlet === 3 && e.result === 'ok')!;
    expect(entry).toMatchObject({ source: 'cli', who: 'alice' });
  });

  it('passes state events to every link', async () => {
    const { emu, summary, dir } = await servedCore();
    const link = await connectCore(coreSocketPath(dir));
    links.push(link);
    const states: ControllerState[] = [];
    link.subscribe((name, payload) => {
      if (name === 'state/changed') states.push(payload as ControllerState);
    });
    emu.device.setOutlet(0, { state: !emu.device.outlet(0).state });
    await link.handlersAs({ door: 'window', who: 'me' })['controllers/refresh']({ id: summary.id });
    await vi.waitFor(() => expect(states.length).toBeGreaterThan(0), { timeout: 15_000 });
  });

  it('lets a caller act only as the window, the tray or the CLI: a frame claiming another door closes its socket', async () => {
    const { dir } = await servedCore();
    const { default: WebSocket } = await import('ws');
    const raw = new WebSocket(`ws+unix:${coreSocketPath(dir)}:/core`, 'plugboard.core.v1');
    await new Promise((resolve, reject) => {
      raw.once('open', resolve);
      raw.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => raw.once('close', (code) => resolve(code)));
    raw.send(
      JSON.stringify({
        type: 'call',
        id: 1,
        name: 'app/info',
        input: {},
        actor: { door: 'json-api', who: 'ci' },
      }),
    );
    expect(await closed).toBe(1008);
  });

  it("turns the Core's refusals into the same errors as in-process, with code and sentence", async () => {
    const { dir } = await servedCore();
    const link = (await findRunningCore(dir))!;
    links.push(link);
    const cli = link.handlersAs({ door: 'cli', who: 'alice' });
    await expect(cli['controllers/refresh']({ id: 'c-nope' })).rejects.toMatchObject({
      name: 'PlugboardError',
      code: 'NOT_FOUND',
    });
    // Input is checked by the Core's own dispatcher, as for the window.
    await expect(
      cli['outlets/set']({ controllerId: 'x', outlets: [0], on: true } as never),
    ).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('tells a call under way that its outcome is unknown when the service goes away', async () => {
    const dir = scratch();
    const h = newCore();
    const socket = await listenCoreSocket(h.core, coreSocketPath(dir), () => undefined);
    const link = (await findRunningCore(dir))!;
    links.push(link);
    // A call the Core holds: still under way when the service closes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The owner-only socket's callers are administrators (the folder's owner).
    const handlers = h.core.handlersAs({ door: 'cli', who: 'alice', role: 'admin' });
    const original = handlers['app/info'];
    handlers['app/info'] = async (input) => {
      await held;
      return original(input);
    };
    const call = link.handlersAs({ door: 'cli', who: 'alice' })['app/info']({});
    const closing = socket.close(50);
    await expect(call).rejects.toMatchObject({ code: 'UNREACHABLE' });
    release();
    await closing;
    await link.closed;
  });
});

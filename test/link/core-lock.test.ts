/**
 * The Core lock (src-main/link/core-lock.ts): it records its holder, is taken over as soon as the holder
 * is gone (a PID that no longer runs, or one reused by another process), never while it runs, and by one
 * starter only when several see the same dead holder. The Core's socket is removed by its owner only.
 * Process-level checks against the built `plugboard serve` are in
 * test/serve/core-lock-process.system.test.ts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  coreSocketPath,
  CoreLockHeld,
  findRunningCore,
  takeCoreLock,
  type CoreLock,
} from '../../src-main/link';
import { HEARTBEAT_MS } from '../../src-main/link/core-lock';
import { attachOrNone } from '../../src-main/link/core-slot';
import { processStart, type LockHolder } from '../../src-main/link/lock-holder';
import { listenCoreSocket } from '../../src-main/serve/core-socket';
import { DEAD_PID } from '../core/dead-pid';
import { cleanUp, newCore } from '../core/harness';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-core-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(cleanUp);
let n = 0;
const fresh = () => {
  const dir = path.join(scratch, `c${++n}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};
const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

/** A lock as a holder that took it would have left it. */
function plant(dir: string, holder: Partial<LockHolder>): void {
  const lock = path.join(dir, 'core.lock');
  mkdirSync(lock, { mode: 0o700 });
  const record: LockHolder = {
    pid: process.pid,
    started: processStart(process.pid),
    boot: bootId,
    host: hostname(),
    shell: 'serve',
    since: Date.now(),
    ...holder,
  };
  writeFileSync(path.join(lock, 'a1b2c3d4e5f60718.holder'), JSON.stringify(record), { mode: 0o600 });
}

describe.runIf(process.platform === 'linux')('the Core lock', () => {
  it('records its holder: PID, process start time, boot id, host and which Plugboard', async () => {
    const dir = fresh();
    const lock = await takeCoreLock(dir, () => undefined, { shell: 'web' });
    const [record] = readdirSync(path.join(dir, 'core.lock'));
    expect(record).toMatch(/^[0-9a-f]{16}\.holder$/);
    const holder = JSON.parse(readFileSync(path.join(dir, 'core.lock', record!), 'utf8')) as LockHolder;
    expect(holder).toMatchObject({ pid: process.pid, boot: bootId, host: hostname(), shell: 'web' });
    expect(holder.started).toBe(processStart(process.pid));
    expect(statSync(path.join(dir, 'core.lock', record!)).mode & 0o777).toBe(0o600);
    await lock.release();
    expect(existsSync(path.join(dir, 'core.lock'))).toBe(false);
  });

  it('is refused while its holder runs, naming it', async () => {
    const dir = fresh();
    const lock = await takeCoreLock(dir, () => undefined);
    const error = await takeCoreLock(dir, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CoreLockHeld);
    expect((error as CoreLockHeld).message).toContain(`plugboard serve (PID ${process.pid}, since`);
    expect((error as CoreLockHeld).holder?.pid).toBe(process.pid);
    await lock.release();
  });

  it('is taken over at once when its holder no longer runs', async () => {
    const dir = fresh();
    plant(dir, { pid: DEAD_PID, started: '1' });
    const lock = await takeCoreLock(dir, () => undefined);
    expect(lock.held).toBe(true);
    await lock.release();
  });

  it('is taken over when its PID now belongs to another process (started at another time)', async () => {
    const dir = fresh();
    plant(dir, { pid: process.pid, started: String(Number(processStart(process.pid)) - 1) });
    const lock = await takeCoreLock(dir, () => undefined);
    expect(lock.held).toBe(true);
    await lock.release();
  });

  it('is taken over when the machine restarted since (another boot id on this host)', async () => {
    const dir = fresh();
    plant(dir, { boot: '00000000-0000-4000-8000-000000000000' });
    const lock = await takeCoreLock(dir, () => undefined);
    expect(lock.held).toBe(true);
    await lock.release();
  });

  it('is kept by a holder on another host until its heartbeat stops', async () => {
    const dir = fresh();
    plant(dir, { host: 'lab-2.example', boot: 'ffffffff-0000-4000-8000-000000000000', pid: 1 });
    await expect(takeCoreLock(dir, () => undefined)).rejects.toThrow('(PID 1 on lab-2.example, since');
    const record = path.join(dir, 'core.lock', 'a1b2c3d4e5f60718.holder');
    const old = new Date(Date.now() - 60_000);
    utimesSync(record, old, old);
    await (await takeCoreLock(dir, () => undefined)).release();
  });

  it('goes to exactly one of several starters that find the same dead holder', async () => {
    const dir = fresh();
    plant(dir, { pid: DEAD_PID, started: '1' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => takeCoreLock(dir, () => undefined)),
    );
    const won = outcomes.filter((o): o is PromiseFulfilledResult<CoreLock> => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of outcomes.filter((o) => o.status === 'rejected'))
      expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(CoreLockHeld);
    expect(readdirSync(path.join(dir, 'core.lock'))).toHaveLength(1);
    await won[0]!.value.release();
    expect(readdirSync(dir).filter((name) => name.startsWith('core.lock'))).toEqual([]);
  });

  it('tells its holder, at its next heartbeat, that its record is gone, so that it stops', async () => {
    const dir = fresh();
    let lost: (error: Error) => void = () => undefined;
    const told = new Promise<Error>((resolve) => (lost = resolve));
    // The heartbeat's timer is faked: the test brings the next beat instead of waiting 2 s for it.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const lock = await takeCoreLock(dir, (error) => lost(error));
      rmSync(path.join(dir, 'core.lock'), { recursive: true });
      expect(lock.held).toBe(true);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect((await told).message).toContain('no longer holds this process');
      expect(lock.held).toBe(false);
      await lock.release();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.runIf(process.platform === 'linux')('the Core socket and the lock', () => {
  it('is removed by its owner only: a Core that lost the folder leaves its successor’s socket', async () => {
    const dir = fresh();
    const first = newCore();
    const old = await listenCoreSocket(first.core, coreSocketPath(dir), () => undefined);
    // A successor took the folder and made its own socket by the same name.
    unlinkSync(coreSocketPath(dir));
    const second = newCore();
    const successor = await listenCoreSocket(second.core, coreSocketPath(dir), () => undefined);
    await old.close(0);
    expect(existsSync(coreSocketPath(dir))).toBe(true);
    const link = await findRunningCore(dir);
    expect(link).not.toBeNull();
    await link!.close();
    await successor.close(0);
    expect(existsSync(coreSocketPath(dir))).toBe(false);
  });

  it('keeps a command from running its own Core while another Plugboard holds the folder without a socket', async () => {
    const dir = fresh();
    const lock = await takeCoreLock(dir, () => undefined, { shell: 'serve' });
    const error = await attachOrNone(dir, { waitMs: 0 }).catch((e: unknown) => e);
    expect((error as Error).message).toContain(`plugboard serve (PID ${process.pid}`);
    expect((error as Error).message).toContain('does not answer; a second Core beside it is not allowed');
    await lock.release();
    expect(await attachOrNone(dir, { waitMs: 0 })).toBeNull();
  });
});

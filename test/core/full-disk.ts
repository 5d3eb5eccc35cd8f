/**
 * A real full disk for tests: a 64 KiB tmpfs mounted on a scratch folder (CI runs as root, which may
 * mount; elsewhere the tests that need one are skipped, saying why). Writes to it fail with a real
 * ENOSPC from the kernel, part-way through when a write crosses into a page the disk no longer has.
 * `fill` takes every free page, `free` gives them back, `unmount` removes it all.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface FullDisk {
  dir: string;
  /** Take every free byte (a filler file grown until ENOSPC). */
  fill(): void;
  /** Give the filler's space back. */
  free(): void;
  unmount(): void;
}

function tryMount(dir: string, size = '64k'): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this process may mount a tmpfs (checked once, by mounting and unmounting one). */
export const canMountTmpfs: boolean = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-mount-check-'));
  const mounted = tryMount(dir);
  if (mounted) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
  return mounted;
})();

/** A tmpfs of `size` (64 KiB unless given: a database's files need more to open at all). */
export function fullDisk(size?: string): FullDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-full-disk-'));
  if (!tryMount(dir, size)) throw new Error(`could not mount a tmpfs on ${dir}`);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(1024, 0x78);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      unlinkSync(filler);
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

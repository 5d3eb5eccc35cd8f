/**
 * Who holds the Core lock (core-lock.ts), written when it is taken, and whether that process still
 * runs. On Linux a holder is gone as soon as its process is: its PID no longer exists, is a zombie, or
 * belongs to a process started at another time (a reused PID); a different boot id on the same host
 * means the machine restarted since. Elsewhere (macOS, Windows) the PID alone says "gone"; a PID that
 * exists might be reused, so the holder's heartbeat decides. A holder on another host (a config folder
 * on a network share) is judged by its heartbeat only.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as v from 'valibot';

export interface LockHolder {
  pid: number;
  /** The process's start time (Linux: clock ticks after boot, field 22 of /proc/<pid>/stat), or null. */
  started: string | null;
  /** The kernel's boot id (/proc/sys/kernel/random/boot_id), or null where there is none. */
  boot: string | null;
  host: string;
  /** Which Plugboard holds it: `serve`, `electron` (the desktop app) or `web`. */
  shell: string;
  /** When it took the lock (epoch ms). */
  since: number;
}

export const lockHolderSchema = v.object({
  pid: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  started: v.nullable(v.pipe(v.string(), v.maxLength(32))),
  boot: v.nullable(v.pipe(v.string(), v.maxLength(64))),
  host: v.pipe(v.string(), v.maxLength(256)),
  shell: v.pipe(v.string(), v.maxLength(32)),
  since: v.number(),
});

/** `alive`: it runs. `gone`: it does not. `unknown`: cannot be told from here (its heartbeat decides). */
export type Liveness = 'alive' | 'gone' | 'unknown';

/** This process as a lock holder. */
export function thisHolder(shell: string, now: number): LockHolder {
  return {
    pid: process.pid,
    started: processStart(process.pid),
    boot: bootId(),
    host: hostname(),
    shell,
    since: now,
  };
}

export function liveness(
  holder: LockHolder,
  here: Pick<LockHolder, 'boot' | 'host'> = thisHolder('', 0),
): Liveness {
  const sameBoot = holder.boot !== null && here.boot !== null && holder.boot === here.boot;
  if (!sameBoot) {
    if (holder.host !== here.host) return 'unknown';
    // The same host with another boot id: the machine restarted since the lock was taken.
    if (holder.boot !== null && here.boot !== null) return 'gone';
    return pidExists(holder.pid) ? 'unknown' : 'gone';
  }
  if (holder.started === null) return pidExists(holder.pid) ? 'unknown' : 'gone';
  return processStart(holder.pid) === holder.started ? 'alive' : 'gone';
}

/** A holder in words, for a refusal: "plugboard serve (PID 4242 on lab-1, since 09:14:03)". */
export function describeHolder(holder: LockHolder): string {
  const what =
    holder.shell === 'serve'
      ? 'plugboard serve'
      : holder.shell === 'electron'
        ? 'the desktop app'
        : holder.shell === 'web'
          ? 'the web shell (npm run web)'
          : 'a Plugboard';
  const since = new Date(holder.since).toTimeString().slice(0, 8);
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `${what} (PID ${holder.pid}${where}, since ${since})`;
}

/**
 * When process `pid` started, as /proc says (clock ticks after boot); null when it does not exist, is a
 * zombie (killed, not yet reaped: it runs no more), or there is no /proc.
 */
export function processStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X' || state === 'x') return null;
  return fields[19] ?? null;
}

let boot: string | null | undefined;
function bootId(): string | null {
  if (boot === undefined) {
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      boot = null;
    }
  }
  return boot;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Sequence runs kept in the config folder: one small JSON file per run in
 * `sequence-runs/`, rewritten (temporary file, then rename) on every change of the run, so a Plugboard
 * that is killed mid-run leaves where it stopped. Each file is written only by the process running it,
 * so no lock is needed; a run still "running" whose process is gone was killed.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import type { SequenceRun } from '../../../src-preload/model';
import { WRITE_NO_LINK } from '../../shared/config-folder';
import type { Logger } from '../../shared/logging';

export const SEQUENCE_RUNS_DIR = 'sequence-runs';

/** What is stored: the run, and who ran it and when it was last written. */
export interface StoredRun {
  run: SequenceRun;
  pid: number;
  /** The machine it ran on (the lab store's runs; a file's were this machine's). */
  host?: string;
  /** Epoch ms of the last write (a killed run stopped after it). */
  updatedAt: number;
}

const storedSchema = v.object({
  pid: v.number(),
  updatedAt: v.number(),
  run: v.looseObject({
    runId: v.pipe(v.string(), v.regex(/^s[0-9a-f]{12}$/)),
    name: v.string(),
    status: v.string(),
    current: v.number(),
    steps: v.array(v.looseObject({ status: v.string(), outlets: v.array(v.number()) })),
    timeline: v.array(v.unknown()),
  }),
});

/** Where sequence runs are kept: files in the config folder, or the lab store (sequence-run-book.ts). */
export interface RunKeeper {
  write(run: SequenceRun, now: number): void;
  remove(runId: string): void;
  /** Every stored run, oldest first. */
  readAll(): StoredRun[];
  /** The runs stored as "running" now, read afresh (another service may have written them since). */
  running(): Promise<StoredRun[]>;
  /** Every write made so far, done (or logged as failed). */
  settled(): Promise<void>;
}

export class SequenceFile implements RunKeeper {
  readonly #dir: string | null;
  readonly #log: Logger;

  constructor(dataDir: string | null, log: Logger) {
    this.#dir = dataDir ? join(dataDir, SEQUENCE_RUNS_DIR) : null;
    this.#log = log;
  }

  write(run: SequenceRun, now: number): void {
    if (!this.#dir) return;
    const file = join(this.#dir, `${run.runId}.json`);
    const stored: StoredRun = { run, pid: process.pid, updatedAt: now };
    try {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      const fd = openSync(`${file}.tmp`, WRITE_NO_LINK, 0o600);
      try {
        writeFileSync(fd, JSON.stringify(stored), 'utf8');
      } finally {
        closeSync(fd);
      }
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      this.#log(`could not record the progress of sequence ${run.name}`, error);
    }
  }

  remove(runId: string): void {
    if (!this.#dir) return;
    try {
      rmSync(join(this.#dir, `${runId}.json`), { force: true });
    } catch (error) {
      this.#log(`could not forget sequence run ${runId}`, error);
    }
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  running(): Promise<StoredRun[]> {
    return Promise.resolve(this.readAll().filter((stored) => stored.run.status === 'running'));
  }

  /** Every stored run (files that do not parse are logged and skipped). */
  readAll(): StoredRun[] {
    if (!this.#dir) return [];
    let names: string[];
    try {
      names = readdirSync(this.#dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const runs: StoredRun[] = [];
    for (const name of names) {
      try {
        const parsed = v.safeParse(storedSchema, JSON.parse(readFileSync(join(this.#dir, name), 'utf8')));
        if (parsed.success) runs.push(parsed.output as unknown as StoredRun);
        else this.#log(`ignoring the unreadable sequence run ${name}`);
      } catch (error) {
        this.#log(`ignoring the unreadable sequence run ${name}`, error);
      }
    }
    return runs.sort((a, b) => a.run.startedAt - b.run.startedAt);
  }
}

/** Whether process `pid` is still running (a run it holds is not killed). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

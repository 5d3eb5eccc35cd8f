/**
 * Runs a fixture script (tsx) inside a private network namespace (`unshare -n`, root: CI runs as root)
 * with only `lo` up, and returns what it printed on its `RESULT <json>` line. pduclient always uses port
 * 16421, so its tests run this way: nothing collides with the machine's own port or leaves the namespace.
 * A fixture still running after `killAfterMs` is killed (the test then fails with its output).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runInNamespace<T>(fixture: string, args: string[], killAfterMs: number): Promise<T> {
  const script = [
    'set -e',
    'ip link set lo up',
    `exec ${[process.execPath, '--import', 'tsx', fixture, ...args].map(quote).join(' ')}`,
  ].join('\n');
  return new Promise((resolve, reject) => {
    const proc = spawn('unshare', ['-n', 'sh', '-c', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    proc.on('error', reject);
    proc.on('close', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line)
        return reject(
          new Error(`no result from the namespace (exit ${code}).\nstdout: ${out}\nstderr: ${err}`),
        );
      resolve(JSON.parse(line.slice('RESULT '.length)) as T);
    });
  });
}

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const tsx = resolve(root, 'node_modules', '.bin', 'tsx');

function run(...args: string[]) {
  return spawnSync(tsx, ['src-main/web/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 20_000 });
}

describe('npm run web arguments', () => {
  it('rejects a port that is not a number, naming it and showing the usage', () => {
    const result = run('--port', 'eighty');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be a whole number from 0 to 65535, not "eighty"');
    expect(result.stderr).toContain('Usage: npm run web');
  });

  it('rejects a port above 65535 and unknown options', () => {
    expect(run('--port', '70000').stderr).toContain('not "70000"');
    const unknown = run('--listen', '0.0.0.0');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--listen'/);
  });

  it('explains itself with --help', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('127.0.0.1 only');
  });
});

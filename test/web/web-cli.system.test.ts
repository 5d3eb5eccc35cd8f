/**
 * `npm run web`'s arguments, as it runs them: the built web shell (out/main/web.js) in its own process,
 * its exit code and what it printed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpServe, webBuilt, type ServeExit } from '../serve/built-serve';

afterEach(cleanUpServe);

function run(...args: string[]): Promise<ServeExit> {
  const web = webBuilt(args);
  web.child.stdin.end();
  return web.exit;
}

describe('npm run web arguments', () => {
  it('rejects a port that is not a number, naming it and showing the usage', async () => {
    const result = await run('--port', 'eighty');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be a whole number from 0 to 65535, not "eighty"');
    expect(result.stderr).toContain('Usage: npm run web');
  });

  it('rejects a port above 65535 and unknown options', async () => {
    expect((await run('--port', '70000')).stderr).toContain('not "70000"');
    const unknown = await run('--listen', '0.0.0.0');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--listen'/);
  });

  it('explains itself with --help', async () => {
    const result = await run('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('127.0.0.1 only');
  });
});

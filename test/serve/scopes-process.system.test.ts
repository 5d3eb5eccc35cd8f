/**
 * Scopes at the process level: the built `plugboard serve` with a token and a pdudaemon network that
 * each name a scope. Start-up says each one's role and scope; a scope naming no saved controller stops
 * the start with a sentence naming it; a scope by name follows its controller by id. Waits on lines and
 * exits, never on elapsed time.
 */
import { afterEach, expect, it } from 'vitest';
import { cleanUpServe, savedBench, serveBuilt, writeTokens } from './built-serve';
import { pduTcp } from './pdudaemon-client';

const SECRET = 'bench-secret-0123456789abcdef';
afterEach(cleanUpServe);

it(
  "says each token's and network's role and scope at start, and acts on them",
  { timeout: 120_000 },
  async () => {
    const bench = await savedBench();
    writeTokens(bench.credentials, [
      `bench[operator controllers=bench-a]:${SECRET}`,
      `ops[admin]:${SECRET}x`,
    ]);
    const service = serveBuilt(
      [
        '--listen',
        'api=127.0.0.1:0',
        '--listen',
        'pdudaemon=127.0.0.1:0',
        '--allow',
        'farm=127.0.0.2[operator tags=farm]',
        '--config-dir',
        bench.configDir,
      ],
      { CREDENTIALS_DIRECTORY: bench.credentials },
    );
    await service.line(/^Ready\.$/);
    const lines = service.stdout().split('\n');
    expect(lines).toContain(
      `tokens: bench (operator of bench-a), ops (admin everywhere) (from ${bench.credentials}/plugboard.tokens)`,
    );
    expect(lines).toContain('pdudaemon: clients from 127.0.0.2 act as farm (operator of tag farm).');
    const port = Number(/^pdudaemon: 127\.0\.0\.1:(\d+) /m.exec(service.stdout())![1]);
    expect(await pduTcp(port, 'bench-a 3 off', '127.0.0.2')).toBe(
      "nack: farm (operator of tag farm) may not switch outlets: outlet 3 on bench-a is outside its scope. Ask the service's administrator to widen its scope, or use a client whose scope reaches it.\n",
    );
    expect(bench.emu.device.outlet(2).state).toBe(true);
  },
);

it('does not start when a scope names no saved controller, naming it', { timeout: 120_000 }, async () => {
  const bench = await savedBench();
  writeTokens(bench.credentials, [`bench[operator controllers=bench-z]:${SECRET}`]);
  const service = serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', bench.configDir], {
    CREDENTIALS_DIRECTORY: bench.credentials,
  });
  const exit = await service.exit;
  expect(exit.code).toBe(1);
  expect(exit.stderr).toContain('the token "bench": no saved controller is called "bench-z"');
});

import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

function canUnshare(): boolean {
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Multicast must never reach a real interface: everything runs in a private network namespace that
// has only its own loopback (needs root, as on CI).
describe.skipIf(!canUnshare())('--mdns', () => {
  it('advertises the controller as _http._tcp with its serial, and the advertised port answers like a DLI unit', async () => {
    const script = [
      'ip link set lo up',
      `"${process.execPath}" --import tsx src-main/emulator/main.ts --port 0 --mdns --name "Bench mDNS" --serial LPC9123456789 > "$EMU_LOG" 2>&1 &`,
      'EMU=$!',
      `"${TSX}" test/emulator/mdns-browse.ts "Bench mDNS"`,
      'STATUS=$?',
      'kill -TERM $EMU',
      'wait $EMU',
      'echo "emulator exit $?"',
      'cat "$EMU_LOG"',
      'rm -f "$EMU_LOG"',
      'exit $STATUS',
    ].join('\n');
    const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn('unshare', ['-n', 'sh', '-c', script], {
        cwd: ROOT,
        env: { ...process.env, EMU_LOG: `/tmp/plugboard-mdns-${process.pid}.log` },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code) => done({ code, stdout, stderr }));
    });
    expect(output.code, output.stderr).toBe(0);
    const lines = output.stdout.trim().split('\n');
    const found = JSON.parse(lines[0]!) as {
      name: string;
      port: number;
      txt: Record<string, string>;
      status: number;
      challenge: string;
    };
    const listening = lines.find((line) => line.startsWith('listening on '));
    expect(listening).toBe(`listening on http://127.0.0.1:${found.port}/restapi/`);
    expect(found).toMatchObject({
      name: 'Bench mDNS',
      txt: { path: '/restapi/', serial: 'LPC9123456789', model: 'LPC9', vendor: 'Digital Loggers' },
      status: 401,
    });
    expect(found.challenge).toMatch(/^DIGEST realm="DLI LPC9123456789", nonce="[A-Za-z0-9]{16}"$/);
    expect(lines).toContain('emulator exit 0');
  }, 90_000);
});

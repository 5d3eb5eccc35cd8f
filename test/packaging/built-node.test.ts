/**
 * The Node under the built `plugboard` command in tests is Electron 41's, 24.14.0 (test/global-node.ts
 * provides it, test/built-node.ts names it), and the tests themselves run on the same major. The command
 * is started as the other bin tests start it, by its `#!/usr/bin/env node` line with that Node first on
 * PATH; a `--require`d probe writes down the `process.version` of the process that runs it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtNode } from '../built-node';
import { ELECTRON_NODE_VERSION } from '../global-node';

const BIN = resolve(import.meta.dirname, '../../out/main/plugboard.js');
const run = promisify(execFile);
let scratch = '';

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with \`npx electron-vite build\`.`);
  scratch = await mkdtemp(join(tmpdir(), 'plugboard-built-node-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the Node under the built command', () => {
  it(`is ${ELECTRON_NODE_VERSION}, the Node inside Electron 41`, async () => {
    const probe = join(scratch, 'probe.cjs');
    const report = join(scratch, 'version');
    await writeFile(probe, `require('node:fs').writeFileSync(${JSON.stringify(report)}, process.version);\n`);
    const { stdout } = await run(BIN, ['controllers', 'list', '--json'], {
      cwd: scratch,
      env: {
        PATH: `${dirname(builtNode())}:${process.env.PATH ?? ''}`,
        PLUGBOARD_CONFIG_DIR: join(scratch, 'config'),
        NODE_OPTIONS: `--require=${probe}`,
      },
    });
    expect(JSON.parse(stdout)).toEqual([]);
    expect(readFileSync(report, 'utf8')).toBe(`v${ELECTRON_NODE_VERSION}`);
  });

  it('has the major of the Node that runs the tests', () => {
    expect(process.versions.node.split('.')[0]).toBe(ELECTRON_NODE_VERSION.split('.')[0]);
  });
});

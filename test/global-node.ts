/**
 * Vitest global setup of the projects that run the built `plugboard` command (system, electron,
 * packaging): the Node for it (test/built-node.ts). The packaged command runs inside Electron 41, whose
 * Node is 24.14.0, so its tests run on that release. `.ci/run` provides it as PLUGBOARD_TEST_BUILT_NODE;
 * elsewhere this fetches it once from the npm registry into the user's cache, with the script CI uses
 * (.ci/node-from-registry), and sets the variable for the test files.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The Node inside Electron 41 (`process.versions.node` in its main process). */
export const ELECTRON_NODE_VERSION = '24.14.0';

const FETCH = resolve(import.meta.dirname, '..', '.ci', 'node-from-registry');

export default function provideBuiltNode(): void {
  const given = process.env.PLUGBOARD_TEST_BUILT_NODE;
  if (given) {
    versionOf(given, 'PLUGBOARD_TEST_BUILT_NODE');
    return;
  }
  let folder: string;
  try {
    folder = execFileSync('bash', [FETCH, ELECTRON_NODE_VERSION], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const said = (error as { stderr?: string }).stderr?.trim();
    throw new Error(
      `The built plugboard command's tests run on Node ${ELECTRON_NODE_VERSION} (Electron 41's), which could not ` +
        `be fetched from the npm registry${said ? `:\n${said}\n` : '. '}` +
        'Run the tests once where the registry can be reached (the copy is kept in ~/.cache/plugboard/node), ' +
        `or set PLUGBOARD_TEST_BUILT_NODE to a Node ${ELECTRON_NODE_VERSION} binary.`,
      { cause: error },
    );
  }
  const node = join(folder, 'bin', 'node');
  versionOf(node, 'The fetched Node');
  process.env.PLUGBOARD_TEST_BUILT_NODE = node;
}

function versionOf(node: string, what: string): string {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    throw new Error(`${what} (${node}) does not run: ${(error as Error).message}`, { cause: error });
  }
}

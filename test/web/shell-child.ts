/**
 * The web shell alone in its own process, as `npm run web` runs it (console logger, no test runner to
 * catch what is thrown), serving the stand-in renderer named by PLUGBOARD_TEST_RENDERER. Prints
 * `READY <port> <token>` once listening; stops on SIGTERM.
 */
import { startWebShell } from '../../src-main/web/server';
import { testCore } from './test-core';

const core = testCore();
const shell = await startWebShell({ core, rendererDir: process.env.PLUGBOARD_TEST_RENDERER! });
console.log(`READY ${shell.port} ${shell.token}`);
process.once('SIGTERM', () => {
  void shell
    .close()
    .then(() => core.dispose())
    .then(() => process.exit(0));
});

/**
 * The Node that runs the built `plugboard` command in tests. The packaged command runs inside Electron
 * 41, whose Node is 24.14, so `npm run test:all` runs the built command's tests on that exact release
 * (PLUGBOARD_TEST_BUILT_NODE, set by test/global-node.ts); elsewhere the Node running the tests.
 */
export function builtNode(): string {
  return process.env.PLUGBOARD_TEST_BUILT_NODE || process.execPath;
}

/**
 * The `plugboard` command (the package's `bin`, built to out/main/plugboard.js): `plugboard serve …`
 * runs the service (src-main/serve), anything else the command line (src-main/cli). Each door is loaded
 * only when asked for, so a CLI command never loads the service's code, nor the service the CLI's.
 */
const args = process.argv.slice(2);
if (args[0] === 'serve') {
  const { runServe } = await import('../serve/main');
  const code = await runServe(args.slice(1));
  process.exitCode = code;
  // Whatever timers or sockets a dependency left behind, the service is over.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
} else {
  await import('../cli/main');
}

export {};

/**
 * CLI steps run one after another in one `dbus-run-session` with an unlocked gnome-keyring whose files
 * live in a temporary HOME (the real Secret Service), and the saved list in a temporary
 * PLUGBOARD_CONFIG_DIR. Give the `home` of an earlier session to go on with its keychain and controllers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { ROOT, cleanEnv } from './run-cli';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-keychain-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

export interface Step {
  name: string;
  args: string[];
  stdin?: string;
}
export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

const shq = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Run the steps one after another in a single Secret Service session; collect each step's output. Give
 * the `home` of an earlier session to go on with its keychain and saved controllers.
 */
export async function inKeychainSession(
  steps: Step[],
  home = mkdtempSync(join(scratch, 'home-')),
): Promise<{ results: Record<string, StepResult>; configDir: string; home: string }> {
  const out = join(home, 'out');
  const configDir = join(home, 'plugboard');
  const main = resolve(ROOT, 'src-main/cli/main.ts');
  const lines = [
    'set -u',
    `mkdir -p ${shq(out)}`,
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    ...steps.map(({ name, args, stdin }) => {
      const command = `${shq(process.execPath)} --import tsx ${shq(main)} ${args.map(shq).join(' ')}`;
      // A here-document's lines follow the whole command line, after `; echo $?`.
      const input = stdin === undefined ? '</dev/null' : `<<'EOF_STDIN'`;
      const body = stdin === undefined ? '' : `\n${stdin}\nEOF_STDIN`;
      return `${command} >${shq(join(out, `${name}.out`))} 2>${shq(join(out, `${name}.err`))} ${input}; echo $? >${shq(join(out, `${name}.code`))}${body}`;
    }),
  ];
  const env = cleanEnv({
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    PLUGBOARD_CONFIG_DIR: configDir,
    DISPLAY: '',
  });
  await new Promise<void>((done, fail) => {
    const child = spawn('dbus-run-session', ['--', 'sh', '-c', lines.join('\n')], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
    });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`dbus-run-session exited ${code}`))));
  });
  const results: Record<string, StepResult> = {};
  for (const { name } of steps) {
    results[name] = {
      code: Number(readFileSync(join(out, `${name}.code`), 'utf8')),
      stdout: readFileSync(join(out, `${name}.out`), 'utf8'),
      stderr: readFileSync(join(out, `${name}.err`), 'utf8'),
    };
  }
  return { results, configDir, home };
}

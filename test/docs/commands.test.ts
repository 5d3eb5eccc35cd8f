/**
 * The command lines README.md and docs/ show parse with the programs' own definitions: a page that shows
 * a command or an option that does not exist (or moved to another command) fails here, naming the page,
 * the line and commander's or the parser's own words.
 */
import { describe, expect, it } from 'vitest';
import { shownCommands } from './doc-commands';
import { docPages } from './markdown';
import { cliProblem, emulatorProblem, invocationProblem, serveProblem } from './parse-check';

const pages = docPages();
const shown = pages.flatMap(shownCommands);

describe('every command line the docs show', () => {
  it('is found: the pages show the CLI, the service and the emulator', () => {
    expect(shown.filter((c) => c.program === 'plugboard' && c.args[0] !== 'serve').length).toBeGreaterThan(
      50,
    );
    expect(shown.filter((c) => c.args[0] === 'serve').length).toBeGreaterThan(5);
    expect(shown.filter((c) => c.program === 'emulator').length).toBeGreaterThan(5);
    // A systemd unit's ExecStart= and a line continued with a backslash are read whole.
    expect(shown.some((c) => c.where.startsWith('docs/service.md') && c.shown.startsWith('ExecStart='))).toBe(
      true,
    );
    expect(shown.some((c) => c.shown.includes('\\\n') && c.args.includes('--host-name'))).toBe(true);
  });

  it.each(shown.map((c) => [`${c.where} ${c.shown.replace(/\s+/g, ' ').slice(0, 90)}`, c] as const))(
    '%s',
    async (_, command) => {
      expect(await invocationProblem(command), command.args.join(' ')).toBeNull();
    },
  );
});

describe('the check itself', () => {
  it('refuses an option that does not exist, or one given to a command that does not take it', async () => {
    expect(await cliProblem(['on', '3', '--yes'])).toBeNull();
    expect(await cliProblem(['on', '3', '--no-such-option'])).toMatch(/unknown option '--no-such-option'/);
    expect(await cliProblem(['outlets', '--yes'])).toMatch(/unknown option '--yes'/);
    expect(await cliProblem(['--wait', 'on', '3'])).toMatch(/unknown option '--wait'/);
  });

  it('refuses an unknown command, a missing argument or required option, and a word left over', async () => {
    expect(await cliProblem(['reserve', 'Bench A:3', '--for', '2h', '--reason', 'firmware'])).toBeNull();
    expect(await cliProblem(['turn-on', '3'])).toMatch(/unknown command 'turn-on'/);
    expect(await cliProblem(['reserve', 'Bench A:3'])).toMatch(/required option '--for <duration>'/);
    expect(await cliProblem(['sequence', 'run', 'Rack 7'])).toMatch(/missing required argument 'action'/);
    expect(await cliProblem(['reboot', 'now'])).toMatch(/too many arguments/);
    expect(await cliProblem(['controllers'])).toMatch(/names no command/);
  });

  it('accepts help, and runs no command: a line that would switch outlets sends nothing', async () => {
    expect(await cliProblem(['--help'])).toBeNull();
    expect(await cliProblem(['sequence', 'run', '--help'])).toBeNull();
    // No controller, no Core and no service exist here: running the action would fail, parsing does not.
    expect(await cliProblem(['--url', 'http://127.0.0.1:9', 'off', 'all', '--transient'])).toBeNull();
  });

  it('reads plugboard serve with its own parser, including what its flags must hold', async () => {
    expect(await serveProblem(['--listen', 'api', '--token-file', '/etc/plugboard/tokens'])).toBeNull();
    expect(await serveProblem(['--listen-all'])).toMatch(/Unknown option '--listen-all'/);
    expect(await serveProblem(['--listen', 'pdudaemon=0.0.0.0:16421'])).toMatch(/--allow/);
  });

  it('reads the emulator with its own parser', () => {
    expect(emulatorProblem(['--count', '3', '--real-unit'])).toBeNull();
    expect(emulatorProblem(['--outlet', '4'])).toMatch(/unknown option '--outlet'/);
  });

  it('fails for a page that shows an option that does not exist', async () => {
    const page = {
      path: 'docs/example.md',
      text: [
        '```sh',
        'plugboard on "Bench A:3" --wait   # fine',
        'plugboard off "Bench A:3" --force # no such option',
        '```',
        'Or inline: `plugboard cycle "Bench A:3" --now`, and `plugboard` alone names the program.',
      ].join('\n'),
    };
    const problems = await Promise.all(
      shownCommands(page).map(async (c) => [c.where, await invocationProblem(c)]),
    );
    expect(problems).toEqual([
      ['docs/example.md:2', null],
      ['docs/example.md:3', expect.stringMatching(/unknown option '--force'/)],
      ['docs/example.md:5', expect.stringMatching(/unknown option '--now'/)],
    ]);
  });
});

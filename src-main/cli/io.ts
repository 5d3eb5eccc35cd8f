/**
 * The command line's contact with the outside: output streams, colours (only on a TTY), standard
 * input lines (for --password-stdin), the environment, and exit codes.
 */
import pc from 'picocolors';
import type { Readable, Writable } from 'node:stream';
import { plugboardConfigDir } from '../core/config';

export type Colors = ReturnType<typeof pc.createColors>;

export { EXIT_OK, EXIT_USAGE } from './exit-codes';
/** A controller (or the keychain, or the saved list) said no: one clear line on stderr (exit-codes.ts). */
export { EXIT_FAILED as EXIT_CONTROLLER } from './exit-codes';

/** At most `max` characters of what was typed, for an error message (an ellipsis marks a cut). */
export function excerpt(typed: string, max = 40): string {
  const chars = [...String(typed)];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** A mistake in the command line; exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Leave with this exit code; what needed saying was already printed. */
export class ExitWith extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
    this.name = 'ExitWith';
  }
}

export interface CliIo {
  out: Writable & { isTTY?: boolean };
  err: Writable & { isTTY?: boolean };
  in: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  /** Where Ctrl+C arrives (`SIGINT`): the process, unless the command runs inside another program. */
  signals?: Pick<NodeJS.EventEmitter, 'once' | 'off'>;
}

/**
 * Plugboard's config folder as this command's environment names it: PLUGBOARD_CONFIG_DIR, else the
 * app's folder under its HOME (the same as the process's when the environment is the process's).
 */
export function configDirOf(env: NodeJS.ProcessEnv): string {
  return plugboardConfigDir(env.HOME === undefined ? { env } : { env, home: env.HOME });
}

export class Terminal {
  readonly io: CliIo;
  /** Colours for stdout (only when it is a TTY and NO_COLOR is unset). */
  readonly colors: Colors;
  #lines: AsyncIterator<string> | null = null;
  /** Long words of the command line: an error shows only an excerpt of each. */
  #long: string[] = [];

  constructor(io: CliIo) {
    this.io = io;
    const tty = io.out.isTTY === true && !io.env.NO_COLOR;
    this.colors = pc.createColors(tty);
  }

  print(text: string): void {
    this.io.out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  json(value: unknown): void {
    this.io.out.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Remember what was typed, so no message echoes more than an excerpt of it. */
  typed(argv: readonly string[]): void {
    this.#long = argv
      .flatMap((word) => [word, word.trim()])
      // A certificate fingerprint is checked before use and shown whole, so it can be compared.
      .filter((word) => word.length > 40 && !/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/.test(word))
      .sort((a, b) => b.length - a.length);
  }

  /** One line on stderr. */
  warn(text: string): void {
    let line = text.replace(/\s*\n\s*/g, ' ');
    for (const word of this.#long) line = line.split(word).join(excerpt(word));
    this.io.err.write(`${line}\n`);
  }

  /**
   * The next line of standard input (without its line ending). Used for passwords: never echoed when
   * stdin is a terminal.
   */
  async readLine(what: string): Promise<string> {
    if (this.io.in.isTTY && this.io.in.setRawMode) return this.#readHidden(what);
    // node:readline (seven modules) is loaded only by the commands that read standard input.
    if (!this.#lines) {
      const { createInterface } = await import('node:readline');
      this.#lines ??= createInterface({ input: this.io.in, crlfDelay: Infinity })[Symbol.asyncIterator]();
    }
    const next = await this.#lines.next();
    if (next.done)
      throw new UsageError(`Standard input ended before ${what} was read; pipe it in, one per line.`);
    return next.value;
  }

  #readHidden(what: string): Promise<string> {
    const input = this.io.in;
    this.io.err.write(`${what.charAt(0).toUpperCase()}${what.slice(1)}: `);
    return new Promise((resolve, reject) => {
      let text = '';
      const finish = (error: Error | null): void => {
        input.setRawMode?.(false);
        input.pause();
        input.removeListener('data', onData);
        this.io.err.write('\n');
        if (error) reject(error);
        else resolve(text);
      };
      const onData = (chunk: Buffer | string): void => {
        for (const char of chunk.toString()) {
          if (char === '\r' || char === '\n' || char === '\u0004') return finish(null);
          if (char === '\u0003') return finish(new UsageError('Cancelled.'));
          if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
          else text += char;
        }
      };
      input.setRawMode?.(true);
      input.resume();
      input.on('data', onData);
    });
  }
}

/**
 * The command lines a page shows, read as a POSIX shell reads them (quotes, backslashes, comments, line
 * continuations, pipes and lists, redirections), and which of them run one of Plugboard's programs:
 * `plugboard …` (also as `/usr/bin/plugboard`, `node out/main/plugboard.js`, `npm run --silent cli --`,
 * `sudo … plugboard`, a systemd `ExecStart=`), `npm run serve`, and `npm run emulator -- …`.
 */

export type Program = 'plugboard' | 'emulator';

export interface Invocation {
  program: Program;
  /** The words after the program's name, as the program receives them. */
  args: string[];
}

const OPERATORS = ['&&', '||', '|', ';', '&'];

/**
 * The simple commands of a piece of shell text (several lines: a backslash at the end of a line
 * continues it), each as its words. Comments, operators and redirections are left out.
 */
export function simpleCommands(text: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let redirect = false;
  const endWord = (): void => {
    if (word === null) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = null;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  let i = 0;
  const source = text.replace(/\\\n/g, '');
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      endCommand();
      i++;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (c === '#' && word === null) {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) throw new Error(`An unclosed ' in: ${text.trim()}`);
      word = (word ?? '') + source.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      let inner = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\\' && '"\\$`'.includes(source[j + 1] ?? '')) j++;
        inner += source[j];
        j++;
      }
      if (j >= source.length) throw new Error(`An unclosed " in: ${text.trim()}`);
      word = (word ?? '') + inner;
      i = j + 1;
    } else if (c === '\\') {
      word = (word ?? '') + (source[i + 1] ?? '');
      i += 2;
    } else if (c === '>' || c === '<') {
      // A redirection: `>`, `>>`, `2>`, `<`; the word after it is a file, not an argument.
      if (word !== null && /^\d+$/.test(word)) word = null;
      endWord();
      redirect = true;
      i += source[i + 1] === '>' ? 2 : 1;
    } else {
      const operator = OPERATORS.find((op) => source.startsWith(op, i));
      if (operator) {
        endCommand();
        i += operator.length;
      } else {
        word = (word ?? '') + c;
        i++;
      }
    }
  }
  endCommand();
  return commands;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const basename = (path: string): string => path.split('/').pop() ?? path;

/** Which of Plugboard's programs a simple command runs, with its arguments; null for any other command. */
export function invocationOf(command: readonly string[]): Invocation | null {
  let words = [...command];
  // A systemd unit's ExecStart= line holds a command line.
  if (words[0] && /^Exec[A-Za-z]*=/.test(words[0])) words[0] = words[0].replace(/^Exec[A-Za-z]*=/, '');
  if (words[0] === 'sudo') {
    words = words.slice(1);
    while (words[0]?.startsWith('-')) words = words.slice(/^-[ugCDhpRrT]$/.test(words[0]) ? 2 : 1);
  }
  while (words[0] && ASSIGNMENT.test(words[0])) words = words.slice(1);
  const [first, ...rest] = words;
  if (first === undefined) return null;
  if (basename(first) === 'plugboard') return { program: 'plugboard', args: rest };
  if (first === 'node' && rest[0] && basename(rest[0]) === 'plugboard.js')
    return { program: 'plugboard', args: rest.slice(1) };
  if (first === 'npm' && rest[0] === 'run') {
    const script = rest.slice(1).filter((w) => w !== '--silent' && w !== '-s');
    const [name, dashes, ...args] = script;
    if (dashes !== undefined && dashes !== '--') return null;
    if (name === 'cli') return { program: 'plugboard', args };
    if (name === 'serve') return { program: 'plugboard', args: ['serve', ...args] };
    if (name === 'emulator') return { program: 'emulator', args };
  }
  return null;
}

/**
 * Every command line of Plugboard's programs that a page shows: in its code blocks (every line), and in
 * its inline code when the span is a whole command line (it starts with the program and holds no
 * placeholder such as `<outlets>`, `[options]`, `a|b` or `…`; a span that only names the program, like
 * `plugboard serve`'s bare name, is a name).
 */
import { inlineCode, splitPage, type Page } from './markdown';
import { invocationOf, simpleCommands, type Invocation } from './shell-lines';

export interface ShownCommand extends Invocation {
  /** Where the page shows it: `docs/cli.md:42`. */
  where: string;
  /** The line as the page shows it (continuations joined). */
  shown: string;
}

/** Code blocks that hold something other than shell or a systemd unit: not read as command lines. */
const NOT_SHELL = new Set(['yaml', 'yml', 'json', 'text', 'jinja', 'ts', 'js', 'svelte', 'html', 'css']);

const PLACEHOLDER = /[<>[\]|…]|\.\.\./;

function fromBlockLines(page: Page, lines: { text: string; line: number }[]): ShownCommand[] {
  const found: ShownCommand[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = lines[i]!.line;
    let text = lines[i]!.text;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text}\n${lines[++i]!.text}`;
    for (const words of simpleCommands(text)) {
      const invocation = invocationOf(words);
      if (invocation) found.push({ ...invocation, where: `${page.path}:${start}`, shown: text.trim() });
    }
  }
  return found;
}

function fromInline(page: Page, span: string, line: number): ShownCommand[] {
  if (PLACEHOLDER.test(span) || !/plugboard|npm run/.test(span)) return [];
  const commands = simpleCommands(span);
  const invocation = commands.length === 1 ? invocationOf(commands[0]!) : null;
  if (!invocation || invocation.args.length === 0) return [];
  // `plugboard serve` alone names the service; with flags it is a command line.
  if (invocation.args.length === 1 && invocation.args[0] === 'serve') return [];
  return [{ ...invocation, where: `${page.path}:${line}`, shown: span }];
}

/** The command lines one page shows. */
export function shownCommands(page: Page): ShownCommand[] {
  const { blocks, prose } = splitPage(page.text);
  return [
    ...blocks
      .filter((block) => !NOT_SHELL.has(block.lang))
      .flatMap((block) => fromBlockLines(page, block.lines)),
    ...prose.flatMap(({ text, line }) => inlineCode(text).flatMap((span) => fromInline(page, span, line))),
  ];
}

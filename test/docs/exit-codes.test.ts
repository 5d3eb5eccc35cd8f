/**
 * The exit-code table the command-line page shows is the one the CLI uses and prints with --help
 * (src-main/cli/exit-codes.ts): the same codes, in the same order, with the same meanings.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_TABLE, exitCodeHelp } from '../../src-main/cli/exit-codes';
import { docPages, splitPage } from './markdown';

/** The rows of the Markdown table whose header is `| Code | Meaning |`, as [code, meaning]. */
function exitTableOf(text: string): [number, string][] | null {
  const lines = splitPage(text).prose.map((l) => l.text);
  const start = lines.findIndex((line) => /^\|\s*Code\s*\|\s*Meaning\s*\|\s*$/.test(line));
  if (start < 0) return null;
  const rows: [number, string][] = [];
  for (const line of lines.slice(start + 2)) {
    const cells = /^\|\s*(.*?)\s*\|\s*(.*?)\s*\|\s*$/.exec(line);
    if (!cells) break;
    rows.push([Number(cells[1]), cells[2]!]);
  }
  return rows;
}

describe('the exit-code table', () => {
  const pages = docPages();
  const withTable = pages.filter((page) => exitTableOf(page.text) !== null);

  it('is shown once, on the command-line page', () => {
    expect(withTable.map((page) => page.path)).toEqual(['docs/cli.md']);
  });

  it('equals the one the CLI uses and prints', () => {
    const shown = exitTableOf(withTable[0]!.text)!.map(([code, meaning]) => `${code}  ${meaning}`);
    expect(shown).toEqual(EXIT_TABLE.map(([code, meaning]) => `${code}  ${meaning}`));
    for (const row of shown) expect(exitCodeHelp()).toContain(`  ${row}\n`);
  });
});

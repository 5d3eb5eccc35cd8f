/**
 * Reading the project's Markdown pages as the doc tests need them: which pages there are, their fenced
 * code blocks, their inline code and links outside those blocks, and the anchors their headings get on
 * GitHub.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface Page {
  /** Relative to the repository, with forward slashes (`docs/cli.md`). */
  path: string;
  text: string;
}

/** README.md and every page in docs/, in a stable order. */
export function docPages(root = repoRoot): Page[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

export interface CodeBlock {
  /** The fence's info string (`sh`, `ini`, …), '' when none. */
  lang: string;
  /** The block's lines, each with its 1-based line number in the page. */
  lines: { text: string; line: number }[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/;

/** The fenced code blocks of a page, and the page's other lines (prose, tables, headings). */
export function splitPage(text: string): { blocks: CodeBlock[]; prose: { text: string; line: number }[] } {
  const blocks: CodeBlock[] = [];
  const prose: { text: string; line: number }[] = [];
  let open: { fence: string; block: CodeBlock } | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const fence = FENCE.exec(raw);
    if (open) {
      if (fence && fence[1]!.startsWith(open.fence) && raw.trim() === fence[1]) {
        blocks.push(open.block);
        open = null;
      } else open.block.lines.push({ text: raw, line });
      return;
    }
    if (fence) open = { fence: fence[1]!, block: { lang: fence[2] ?? '', lines: [] } };
    else prose.push({ text: raw, line });
  });
  if (open) throw new Error(`A code block is never closed (from its ${(open as { fence: string }).fence}).`);
  return { blocks, prose };
}

/** The inline code spans of one prose line (single or double backticks). */
export function inlineCode(line: string): string[] {
  return [...line.matchAll(/(`{1,2})(?!`)(.+?)(?<!`)\1(?!`)/g)].map((m) => m[2]!.trim());
}

/** A prose line without its inline code, so that a link shown as code is not taken for a link. */
function withoutCode(line: string): string {
  return line.replace(/(`{1,2})(?!`)(.+?)(?<!`)\1(?!`)/g, '');
}

/** The targets of the Markdown links and images on one prose line: `[text](target)`, `![alt](target)`. */
export function linkTargets(line: string): string[] {
  return [...withoutCode(line).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1]!,
  );
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation and symbols dropped (letters, digits, `_`,
 * `-` and spaces kept), spaces made hyphens; a repeated heading gets `-1`, `-2`, ….
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of splitPage(text).prose) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

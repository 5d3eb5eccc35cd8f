/**
 * Every relative link in README.md and docs/ leads somewhere: to a file or folder of the repository,
 * and, when it names an anchor, to a heading of that page (as GitHub makes its anchors).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, headingAnchors, linkTargets, repoRoot, slug, splitPage } from './markdown';

interface Link {
  from: string;
  line: number;
  target: string;
}

const links: Link[] = docPages().flatMap((page) =>
  splitPage(page.text).prose.flatMap(({ text, line }) =>
    linkTargets(text).map((target) => ({ from: page.path, line, target })),
  ),
);
const relativeLinks = links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target));

/** Why a link leads nowhere, or null when it leads to a file (and heading) that exists. */
function brokenBecause(link: Link): string | null {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? link.from : normalize(join(dirname(link.from), decodeURI(path)));
  if (relative(repoRoot, join(repoRoot, file)).startsWith('..')) return `${file} is outside the repository`;
  if (!existsSync(join(repoRoot, file))) return `${file} does not exist`;
  if (anchor === undefined) return null;
  if (statSync(join(repoRoot, file)).isDirectory() || !file.endsWith('.md'))
    return `${file} is not a page with headings`;
  const anchors = headingAnchors(readFileSync(join(repoRoot, file), 'utf8'));
  return anchors.has(anchor) ? null : `${file} has no heading #${anchor} (it has ${[...anchors].join(', ')})`;
}

describe('the links of README.md and docs/', () => {
  it('are found: the README links every page of docs/', () => {
    const fromReadme = new Set(relativeLinks.filter((l) => l.from === 'README.md').map((l) => l.target));
    for (const page of docPages().filter((p) => p.path.startsWith('docs/')))
      expect(fromReadme).toContain(page.path);
    expect(relativeLinks.filter((l) => l.target.includes('#')).length).toBeGreaterThan(5);
  });

  it.each(relativeLinks.map((link) => [`${link.from}:${link.line} ${link.target}`, link] as const))(
    '%s',
    (_, link) => {
      expect(brokenBecause(link)).toBeNull();
    },
  );

  it('are checked: a missing page, a missing heading and a way out of the repository are caught', () => {
    const from = 'docs/cli.md';
    expect(brokenBecause({ from, line: 1, target: 'service.md#tokens' })).toBeNull();
    expect(brokenBecause({ from, line: 1, target: '#exit-codes' })).toBeNull();
    expect(brokenBecause({ from, line: 1, target: 'no-such-page.md' })).toMatch(/does not exist/);
    expect(brokenBecause({ from, line: 1, target: 'service.md#no-such-heading' })).toMatch(/no heading/);
    expect(brokenBecause({ from, line: 1, target: '../../elsewhere.md' })).toMatch(/outside the repository/);
  });

  it('follow GitHub anchors', () => {
    expect(slug("Chromium's sandbox on Ubuntu 24.04+")).toBe('chromiums-sandbox-on-ubuntu-2404');
    expect(slug('The JSON API and /metrics')).toBe('the-json-api-and-metrics');
    expect(slug("The Core's rooms")).toBe('the-cores-rooms');
    expect(slug('Layers: what may import what')).toBe('layers-what-may-import-what');
    expect([...headingAnchors('# A\n## Notes\n```sh\n# not a heading\n```\n## Notes\n')]).toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });
});

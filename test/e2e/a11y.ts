/**
 * Accessibility checks with axe-core, run inside the page in light and in dark (the system colour
 * scheme, which the window follows). Serious and critical violations fail, listed by rule and element.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';
import { repoRoot } from './harness';

const axeSource = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const FAILING: ImpactValue[] = ['serious', 'critical'];

export interface Violation {
  rule: string;
  impact: ImpactValue;
  help: string;
  targets: string[];
  summary: string;
}

/** What axe finds on the page as it is now (serious and critical only). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // The web shell's CSP allows no inline script, so axe is evaluated as the page's own code would not
  // be: through the DevTools protocol, which the page's policy does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }
    ).axe;
    return axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
  });
  return results.violations
    .filter((v) => FAILING.includes(v.impact ?? null))
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
      summary: v.nodes[0]?.failureSummary?.replace(/\s+/g, ' ').trim() ?? '',
    }));
}

function describe(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `- ${v.rule} (${v.impact}): ${v.help}\n    on ${v.targets.slice(0, 6).join(' | ')}${v.targets.length > 6 ? ` … and ${v.targets.length - 6} more` : ''}\n    ${v.summary}`,
    )
    .join('\n');
}

/**
 * Fail on serious or critical violations of `what` (a name for the message), in light and in dark.
 * Leaves the page in the light scheme.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // One frame for the new colours to apply before axe measures contrast.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    const violations = await seriousViolations(page);
    if (violations.length) found.push(`${what}, ${colorScheme}:\n${describe(violations)}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (found.length) throw new Error(`Serious or critical accessibility violations:\n${found.join('\n')}`);
}

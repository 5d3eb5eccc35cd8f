/** The service's token file: `name[role]:secret`, older `name:secret` lines read-only, room for a scope. */
import { describe, expect, it } from 'vitest';
import { parseTokens, tokenLines, type Token } from '../../src-main/serve/tokens';

const SECRET = 'Zq3-0123456789abcdef';

function parsed(text: string): Token[] {
  const tokens = parseTokens(text, '/etc/plugboard/tokens');
  if (typeof tokens === 'string') throw new Error(tokens);
  return tokens;
}

describe('token lines', () => {
  it('reads a role in brackets; a line without one still parses, as a reader', () => {
    const tokens = parsed(
      [
        '# the lab',
        `ci-runner[operator]:${SECRET}`,
        `lab.admin[admin]:${SECRET}x`,
        `grafana[observer]:${SECRET}y`,
        `prometheus:${SECRET}z`,
      ].join('\n'),
    );
    expect(tokens.map((t) => [t.name, t.role, t.legacy])).toEqual([
      ['ci-runner', 'operator', false],
      ['lab.admin', 'admin', false],
      ['grafana', 'observer', false],
      ['prometheus', 'observer', true],
    ]);
  });

  it('splits at the first colon: a secret may hold colons (and brackets), the head may not', () => {
    const [withColons] = parsed(`ci[operator]:a:b:c:[x]:${SECRET}\n`);
    expect(withColons).toMatchObject({ name: 'ci', role: 'operator' });
    const [legacy] = parsed(`old:${SECRET}:[operator]\n`);
    expect(legacy).toMatchObject({ name: 'old', role: 'observer', legacy: true });
  });

  it('refuses an unknown role, an empty bracket and a scope (not supported yet), naming the line', () => {
    const refused = (line: string) => parseTokens(`# x\n${line}\n`, 'tokens');
    expect(refused(`ci[root]:${SECRET}`)).toBe(
      'tokens line 2: the brackets after "ci" start with its role: observer, operator, admin.',
    );
    expect(refused(`ci[]:${SECRET}`)).toContain('start with its role');
    expect(refused(`ci[operator tags=rack-7]:${SECRET}`)).toBe(
      'tokens line 2: "tags=rack-7" after the role of "ci": scopes (such as tags=…) are not supported yet; give the role alone, like ci[operator]:<secret>.',
    );
    expect(refused(`ci[operator extra]:${SECRET}`)).toContain('neither a role nor a scope');
    expect(refused(`ci[operator:${SECRET}`)).toContain('line 2: before the first colon');
    expect(refused(`c i[operator]:${SECRET}`)).toContain('line 2');
    // The secret never appears in a refusal.
    for (const line of [`ci[root]:${SECRET}`, `ci[operator tags=a]:${SECRET}`, `ci[operator:${SECRET}`])
      expect(refused(line)).not.toContain(SECRET);
  });

  it('names at start each token with its role, and each older line with the line to write', () => {
    const lines = tokenLines(
      parsed(`ci[operator]:${SECRET}\nprometheus:${SECRET}z\n`),
      '/etc/plugboard/tokens',
    );
    expect(lines).toEqual([
      'tokens: ci (operator), prometheus (observer, no role written) (from /etc/plugboard/tokens)',
      'token "prometheus": its line names no role, so it may only read now; to let it switch, write it as prometheus[operator]:<secret> (or [observer] to keep it reading, [admin] for everything) in /etc/plugboard/tokens.',
    ]);
  });
});

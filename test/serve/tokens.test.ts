/** The service's token file: `name[role scope…]:secret`, older `name:secret` lines read-only. */
import { describe, expect, it } from 'vitest';
import type { ControllerSummary } from '../../src-preload/model';
import {
  parseTokens,
  resolveTokenScopes,
  tokenCaller,
  tokenLines,
  type Token,
} from '../../src-main/serve/tokens';

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

  it('refuses an unknown role, an empty bracket and a word that is not a scope, naming the line', () => {
    const refused = (line: string) => parseTokens(`# x\n${line}\n`, 'tokens');
    expect(refused(`ci[root]:${SECRET}`)).toBe(
      'tokens line 2: the brackets after "ci" start with its role: observer, operator, admin.',
    );
    expect(refused(`ci[]:${SECRET}`)).toContain('start with its role');
    expect(refused(`ci[operator racks=7]:${SECRET}`)).toBe(
      'tokens line 2: "racks=7" after the role of "ci" is neither a role nor a scope: give tags=…, controllers=… or outlets=… (like ci[operator tags=rack-7]:<secret>).',
    );
    expect(refused(`ci[operator tags=a tags=b]:${SECRET}`)).toContain('tags= is given twice');
    expect(refused(`ci[operator tags=a,,b]:${SECRET}`)).toContain('empty item');
    expect(refused(`ci[operator outlets=bench-a]:${SECRET}`)).toBe(
      'tokens line 2: "bench-a" in outlets= is not <controller>:<outlet number>, like Bench-A:3.',
    );
    expect(refused(`ci[operator outlets=bench-a:0]:${SECRET}`)).toContain(
      'is not <controller>:<outlet number>',
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
      'tokens: ci (operator everywhere), prometheus (observer everywhere, no role written) (from /etc/plugboard/tokens)',
      'token "prometheus": its line names no role, so it may only read now; to let it switch, write it as prometheus[operator]:<secret> (or [observer] to keep it reading, [admin] for everything) in /etc/plugboard/tokens.',
    ]);
  });
});

const saved = [
  { id: 'c-1', name: 'Bench A', alias: 'bench-a', tags: ['rack-7'] },
  { id: 'c-2', name: 'Bench B', tags: [] },
] as unknown as ControllerSummary[];

describe('token scopes', () => {
  it('reads tags, controllers and outlets, and finds the controllers by id, name or alias at start', () => {
    const tokens = parsed(
      [
        `ci[operator tags=farm,rack-7]:${SECRET}`,
        `bench[admin controllers=c-2 outlets=bench-a:3,c-2:4]:a:b:${SECRET}`,
        `ops[operator]:${SECRET}x`,
      ].join('\n'),
    );
    expect(tokens[0]!.written).toEqual({ tags: ['farm', 'rack-7'], controllers: [], outlets: [] });
    // The head ends at the bracket: the colons of outlets= are the scope's, the rest the secret's.
    expect(tokens[1]!.written).toEqual({
      tags: [],
      controllers: ['c-2'],
      outlets: [
        { controller: 'bench-a', outlet: 3 },
        { controller: 'c-2', outlet: 4 },
      ],
    });
    const resolved = resolveTokenScopes(tokens, saved, '/etc/plugboard/tokens') as Token[];
    expect(resolved.map((t) => tokenCaller(t, 'json-api').scope)).toEqual([
      { kind: 'some', tags: ['farm', 'rack-7'], controllers: [], outlets: [] },
      {
        kind: 'some',
        tags: [],
        controllers: ['c-2'],
        outlets: [
          { controllerId: 'c-1', outlet: 3 },
          { controllerId: 'c-2', outlet: 4 },
        ],
      },
      { kind: 'all' },
    ]);
    expect(tokenLines(resolved, '/etc/plugboard/tokens', saved)[0]).toBe(
      'tokens: ci (operator of tags farm and rack-7), bench (admin of Bench B, outlet 3 on Bench A and outlet 4 on Bench B), ops (operator everywhere) (from /etc/plugboard/tokens)',
    );
  });

  it('keeps a scope by id: a renamed controller stays in it, a name that matches nothing stops the start', () => {
    const tokens = parsed(`bench[operator controllers=Bench-B,bench-a]:${SECRET}`);
    expect(resolveTokenScopes(tokens, saved, 'tokens')).toBe(
      'tokens: the token "bench": no saved controller is called "Bench-B": give its id, name or alias as `plugboard list` shows it (a controller added since the service started is named here after a restart; a tag reaches it at once).',
    );
    const [token] = resolveTokenScopes(
      parsed(`bench[operator controllers=bench-a]:${SECRET}`),
      saved,
      't',
    ) as Token[];
    const renamed = saved.map((c) => ({ ...c, name: `${c.name} (old)`, alias: undefined }));
    expect(tokenCaller(token!, 'cli').scope).toMatchObject({ controllers: ['c-1'] });
    expect(tokenLines([token!], 't', renamed)[0]).toBe('tokens: bench (operator of Bench A (old)) (from t)');
  });

  it('never reaches more than was written before its controllers are found', () => {
    const [token] = parsed(`ci[operator tags=farm controllers=c-2]:${SECRET}`);
    expect(tokenCaller(token!, 'cli').scope).toEqual({
      kind: 'some',
      tags: ['farm'],
      controllers: [],
      outlets: [],
    });
  });
});

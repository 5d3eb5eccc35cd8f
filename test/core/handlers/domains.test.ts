/**
 * The handlers room holds one file per domain of the contract (`outlets/*` in handlers/outlets.ts, and so
 * on), besides the role and scope checks, the dispatcher and the handler sets per caller: a call is found where its name says, and a new domain
 * gets a file of its own. Each file's handler set answers exactly its domain's calls.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callNames, splitCallName } from '../../../src-preload/contract';

const room = join(import.meta.dirname, '../../../src-main/core/handlers');
/**
 * The room's files that are not a domain's handlers: the dispatcher, the role check, the scope check and
 * the handler sets that bind the domains together for a caller.
 */
const NOT_A_DOMAIN = ['dispatch.ts', 'handler-sets.ts', 'permissions.ts', 'scopes.ts'];

const domains = [...new Set(callNames.map((name) => splitCallName(name)[0]))].sort();
const domainFiles = readdirSync(room)
  .filter((file) => file.endsWith('.ts') && !NOT_A_DOMAIN.includes(file))
  .sort();

describe('the handlers room', () => {
  it('has one file per domain of the contract, and no other but the dispatcher, the role and scope checks and the handler sets', () => {
    expect(domainFiles.map((file) => file.replace(/\.ts$/, ''))).toEqual(domains);
    expect(
      readdirSync(room)
        .filter((file) => NOT_A_DOMAIN.includes(file))
        .sort(),
    ).toEqual(NOT_A_DOMAIN);
  });

  it("answers each domain's calls from that domain's file, and every call from one", async () => {
    const answered: string[] = [];
    for (const file of domainFiles) {
      const domain = file.replace(/\.ts$/, '');
      const module = (await import(join(room, file))) as Record<string, unknown>;
      const factories = Object.entries(module).filter(
        (entry): entry is [string, (...args: unknown[]) => Record<string, unknown>] =>
          entry[0].endsWith('Handlers') && typeof entry[1] === 'function',
      );
      expect(
        factories.map(([name]) => name),
        `${file} exports one handler set`,
      ).toHaveLength(1);
      // A handler set only binds its calls to the Core's context: building it touches neither argument.
      const calls = Object.keys(factories[0]![1]({}, {}));
      expect(
        calls.filter((name) => splitCallName(name as never)[0] !== domain),
        `${file} answers only ${domain}/*`,
      ).toEqual([]);
      answered.push(...calls);
    }
    expect(answered.sort()).toEqual([...callNames].sort());
  });
});

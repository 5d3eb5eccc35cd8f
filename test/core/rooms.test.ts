/**
 * `ls src-main/core` reads as the architecture: the rooms of .dependency-cruiser.cjs (one rule each, in
 * their order) and the public files of its core-surface rule, nothing else; the Core's tests mirror the
 * rooms (test/core/<room>/), with the helpers they share beside the rooms.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
interface Rule {
  name: string;
  to: { pathNot?: string };
}
const { forbidden } = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
  forbidden: Rule[];
};
const rooms = forbidden
  .filter((rule) => rule.name.startsWith('core-room-'))
  .map((rule) => rule.name.slice(10));
const surface = /\^src-main\/core\/\(([^)]+)\)/
  .exec(forbidden.find((rule) => rule.name === 'core-surface')!.to.pathNot!)![1]!
  .split('|');

const entries = (dir: string) => readdirSync(join(root, dir), { withFileTypes: true });

describe('the Core in rooms', () => {
  it('holds only the rooms of the layer rules and the public files at its top', () => {
    expect(rooms.length).toBeGreaterThan(5);
    const top = entries('src-main/core');
    expect(
      top
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual([...rooms].sort());
    expect(
      top
        .filter((entry) => !entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(surface.map((file) => `${file}.ts`).sort());
  });

  it('has its tests in folders named as its rooms', () => {
    const folders = entries('test/core')
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => name !== 'fixtures' && !rooms.includes(name))).toEqual([]);
    const loose = entries('test/core')
      .filter((entry) => entry.name.endsWith('.test.ts'))
      .map((entry) => entry.name);
    expect(loose).toEqual(['rooms.test.ts']);
  });
});

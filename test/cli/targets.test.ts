/** Parsing what on/off/cycle address through the Core (targets.ts), and the exit-code combination. */
import { describe, expect, it } from 'vitest';
import type { ControllerSummary, Group, OutletState } from '../../src-preload/model';
import { combinedExitCode, exitCodeFor } from '../../src-main/cli/exit-codes';
import { parseTargets, resolveOutlets } from '../../src-main/cli/targets';

const controller = (id: string, name: string) => ({ id, name }) as ControllerSummary;
const saved = [controller('a', 'Bench A'), controller('r', 'Rack 7'), controller('c', 'Lab:East')];
const groups: Group[] = [{ id: 'g', name: 'Lights', members: [{ controllerId: 'a', outlet: 8 }] }];
const outlets = (names: string[]) => names.map((name, i) => ({ number: i + 1, name }) as OutletState);

describe('targets', () => {
  it('joins several targets on one controller into one part, in order of first mention', () => {
    const parts = parseTargets(['Bench A:3', 'Rack 7:1-4', 'bench a:Router', 'Lights'], saved, groups);
    expect(parts.map((p) => p.controller.name)).toEqual(['Bench A', 'Rack 7']);
    expect(resolveOutlets(parts[1]!, [])).toEqual([1, 2, 3, 4]);
    expect(resolveOutlets(parts[0]!, outlets(['', 'Router', '', '', '', '', '', '']))).toEqual([2, 3, 8]);
  });

  it('reads ranges and lists, all, and a controller name holding a colon', () => {
    expect(resolveOutlets(parseTargets(['Rack 7:1-2, 5 7'], saved, [])[0]!, [])).toEqual([1, 2, 5, 7]);
    expect(resolveOutlets(parseTargets(['Rack 7:ALL'], saved, [])[0]!, [])).toBe('all');
    expect(parseTargets(['Lab:East:2'], saved, [])[0]!.controller.id).toBe('c');
  });

  it('refuses a bare controller, an unknown name, a group that is also a controller, a backwards range', () => {
    expect(() => parseTargets(['Bench A'], saved, [])).toThrow(/"Bench A:all"/);
    expect(() => parseTargets(['Bench B:1'], saved, groups)).toThrow(
      /no saved controller or group.*"Lights"/,
    );
    const clash: Group[] = [{ id: 'g2', name: 'rack 7', members: [] }];
    expect(() => parseTargets(['Rack 7'], saved, clash)).toThrow(
      /both the group "rack 7" and controller "Rack 7"/,
    );
    expect(() => parseTargets(['Rack 7:4-1'], saved, [])).toThrow(/backwards/);
    expect(() => parseTargets(['Rack 7:0'], saved, [])).toThrow(/numbered from 1/);
    expect(() => parseTargets(['Rack 7:'], saved, [])).toThrow(/names no outlet/);
  });

  it('refuses an outlet name on two outlets, an unknown name, and a number beyond the unit', () => {
    const part = parseTargets(['Bench A:lamp'], saved, [])[0]!;
    expect(() => resolveOutlets(part, outlets(['Lamp', 'Lamp', 'Fan']))).toThrow(
      /names outlets 1 and 2 on Bench A/,
    );
    const fan = parseTargets(['Bench A:Heater'], saved, [])[0]!;
    expect(() => resolveOutlets(fan, outlets(['Lamp', 'Fan']))).toThrow(/no outlet named "Heater".*2 "Fan"/);
    const nine = parseTargets(['Bench A:9'], saved, [])[0]!;
    expect(() => resolveOutlets(nine, outlets(['a', 'b']))).toThrow(/outlets 1-2; there is no outlet 9/);
  });
});

describe('exit codes', () => {
  it('maps error codes once, and combines several targets', () => {
    expect(exitCodeFor('UNREACHABLE')).toBe(3);
    expect(exitCodeFor('AUTH_FAILED')).toBe(4);
    expect(exitCodeFor('RESERVED')).toBe(5);
    expect(exitCodeFor('LOCKED')).toBe(6);
    expect(exitCodeFor('DEVICE_ERROR')).toBe(1);
    expect(combinedExitCode([], 2)).toBe(0);
    expect(combinedExitCode([3], 1)).toBe(8);
    expect(combinedExitCode([3, 3], 0)).toBe(3);
    expect(combinedExitCode([3, 6], 0)).toBe(1);
  });
});

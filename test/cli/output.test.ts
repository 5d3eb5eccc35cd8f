/** Parsing what people type, colours only on a terminal, and the config folder of the command's environment. */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Terminal, UsageError, configDirOf } from '../../src-main/cli/io';
import { parseOutletSpec, parseSwitchPairs, resolveOutletSpec } from '../../src-main/cli/outlet-spec';
import { parseScriptArgs } from '../../src-main/cli/script-args';
import { renderTable } from '../../src-main/cli/table';
import type { Outlet } from '../../src-main/dli/types';

function sink(isTTY: boolean): Writable & { isTTY: boolean; text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.text += chunk.toString();
      done();
    },
  }) as Writable & { isTTY: boolean; text: string };
  stream.isTTY = isTTY;
  stream.text = '';
  return stream;
}

const outlet = (number: number, name: string): Outlet => ({
  number,
  name,
  state: false,
  transientState: false,
  physicalState: false,
  locked: false,
  critical: false,
  cycleDelay: null,
});

describe('outlet selections', () => {
  it('parses numbers, lists, all and names', () => {
    expect(parseOutletSpec('3')).toEqual({ kind: 'numbers', numbers: [3] });
    expect(parseOutletSpec('1,4, 7')).toEqual({ kind: 'numbers', numbers: [1, 4, 7] });
    expect(parseOutletSpec('1 4')).toEqual({ kind: 'numbers', numbers: [1, 4] });
    expect(parseOutletSpec('ALL')).toEqual({ kind: 'all' });
    expect(parseOutletSpec('Lab PSU')).toEqual({ kind: 'names', text: 'Lab PSU' });
    expect(() => parseOutletSpec('0')).toThrow(UsageError);
    expect(() => parseOutletSpec(' ')).toThrow(UsageError);
  });

  it('resolves names case-insensitively, also in lists, and names the outlets when one is unknown', () => {
    const outlets = [outlet(1, 'Router'), outlet(2, 'Lab PSU, left'), outlet(3, 'Fan')];
    expect(resolveOutletSpec(parseOutletSpec('lab psu, left'), outlets, 'A')).toEqual([2]);
    expect(resolveOutletSpec(parseOutletSpec('router,3,fan'), outlets, 'A')).toEqual([1, 3]);
    expect(() => resolveOutletSpec(parseOutletSpec('Lamp'), outlets, 'Bench A')).toThrow(
      'Bench A has no outlet named "Lamp". Its outlets: 1 "Router", 2 "Lab PSU, left", 3 "Fan".',
    );
  });

  it('parses switch pairs and script arguments as values', () => {
    expect(parseSwitchPairs(['1=on', 'Lab=PSU=off'])).toEqual([
      { target: '1', on: true },
      { target: 'Lab=PSU', on: false },
    ]);
    expect(() => parseSwitchPairs(['1=up'])).toThrow(UsageError);
    expect(parseScriptArgs('5,10,-1.5,true,"a b",text')).toEqual([5, 10, -1.5, true, 'a b', 'text']);
    expect(parseScriptArgs(undefined)).toEqual([]);
    // A comma inside quotes is part of the text; an apostrophe inside bare text is not a quote.
    expect(parseScriptArgs(`"Lab, left",3,'a,b',it's`)).toEqual(['Lab, left', 3, 'a,b', "it's"]);
  });
});

describe('terminal output', () => {
  const rows = [{ n: '1', state: 'on' }];
  const columns = (t: Terminal) => [
    { title: '#', value: (r: (typeof rows)[0]) => r.n },
    { title: 'STATE', value: (r: (typeof rows)[0]) => r.state, paint: (s: string) => t.colors.green(s) },
  ];

  it('colours only on a TTY, and not with NO_COLOR', () => {
    const tty = new Terminal({ out: sink(true), err: sink(false), in: new PassThrough(), env: {} });
    expect(renderTable(rows, columns(tty), tty.colors.bold)).toContain('\u001b[32m');
    const pipe = new Terminal({ out: sink(false), err: sink(false), in: new PassThrough(), env: {} });
    expect(renderTable(rows, columns(pipe), pipe.colors.bold)).toBe('#  STATE\n1  on');
    const noColor = new Terminal({
      out: sink(true),
      err: sink(false),
      in: new PassThrough(),
      env: { NO_COLOR: '1' },
    });
    expect(renderTable(rows, columns(noColor), noColor.colors.bold)).not.toContain('\u001b[');
  });

  it('reads stdin one line at a time and keeps warnings on one line', async () => {
    const input = new PassThrough();
    const err = sink(false);
    const terminal = new Terminal({ out: sink(false), err, in: input, env: {} });
    input.end('first\nsecond\n');
    expect(await terminal.readLine('a')).toBe('first');
    expect(await terminal.readLine('b')).toBe('second');
    await expect(terminal.readLine('the password')).rejects.toThrow('before the password was read');
    terminal.warn('one\ntwo');
    expect(err.text).toBe('one two\n');
  });
});

describe("the command's environment", () => {
  it('finds the config folder from the environment it was given, its HOME too, not the process’s', () => {
    expect(configDirOf({ HOME: '/home/ana', PLUGBOARD_CONFIG_DIR: '/srv/plugboard' })).toBe('/srv/plugboard');
    expect(configDirOf({ HOME: '/home/ana', XDG_CONFIG_HOME: '/home/ana/conf' })).toBe(
      '/home/ana/conf/Plugboard',
    );
    expect(configDirOf({ HOME: '/home/ana' })).toBe('/home/ana/.config/Plugboard');
    expect(process.env.HOME).not.toBe('/home/ana');
  });
});

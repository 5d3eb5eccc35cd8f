/** The dispatcher every door shares: one object a call, validated before any handler runs. */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { newCore } from '../harness';

describe('dispatch', () => {
  it('refuses an array, a number or a string where a call takes an object, and takes none as {}', async () => {
    const h = newCore();
    for (const [name, input] of [
      ['app/info', []],
      ['settings/set', []],
      ['fleet/inventory', [true]],
      ['app/info', 5],
      ['app/info', 'x'],
    ] as const)
      expect(await dispatch(h.core.handlers, name, input), `${name} ${JSON.stringify(input)}`).toMatchObject({
        ok: false,
        error: {
          code: 'BAD_INPUT',
          message: expect.stringMatching(new RegExp(`^Invalid input for ${name}: give an object`)) as string,
        },
      });
    expect(await dispatch(h.core.handlers, 'app/info', undefined)).toMatchObject({ ok: true });
    expect(await dispatch(h.core.handlers, 'app/info', null)).toMatchObject({ ok: true });
    expect(await h.ok('settings/get', {})).toMatchObject({ pollIntervalMs: expect.any(Number) as number });
  });
});

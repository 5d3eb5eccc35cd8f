/**
 * AutoPing through the contract: list, save (create, edit, disable), remove; recorded in the activity log.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's AutoPing items.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AutopingItem, ContractError, Result } from '../../../src-preload/contract';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

const ITEM = {
  addresses: ['10.0.0.5'],
  outlets: [2, 3],
  enabled: true,
  pingsBeforeEnabling: 1,
  resumptionTrial: false,
  script: '',
};

function failed(result: Result<unknown>): ContractError {
  if (result.ok) throw new Error('expected the call to fail');
  return result.error;
}

describe('AutoPing through the Core', () => {
  it('creates, edits, disables and deletes items, and records each change', async () => {
    const emu = await emulator({ autoping: true });
    const h = newCore();
    const { id } = await addController(h, emu);
    expect(await h.ok('autoping/list', { controllerId: id })).toEqual([]);
    const created = await h.ok<AutopingItem[]>('autoping/save', { controllerId: id, item: ITEM });
    expect(created).toEqual([{ number: 1, ...ITEM, status: 'waiting' }]);
    expect(emu.device.autoping().items[0]).toMatchObject({ outlets: [1, 2] });
    expect(h.activity().at(-1)).toMatchObject({
      action: 'added AutoPing item for 10.0.0.5 (outlets 2, 3)',
      result: 'ok',
    });

    emu.device.autopingAnswers('10.0.0.5', true);
    emu.device.autopingTick();
    const listed = await h.ok<AutopingItem[]>('autoping/list', { controllerId: id });
    expect(listed[0]!.status).toBe('ok');

    const disabled = await h.ok<AutopingItem[]>('autoping/save', {
      controllerId: id,
      number: 1,
      item: { ...ITEM, enabled: false, outlets: [4] },
    });
    expect(disabled[0]).toMatchObject({ enabled: false, outlets: [4], status: 'disabled' });
    expect(h.activity().at(-1)!.action).toBe('changed AutoPing item 1 to 10.0.0.5 (outlets 4), disabled');

    expect(await h.ok('autoping/remove', { controllerId: id, number: 1 })).toEqual([]);
    expect(emu.device.autoping().items).toEqual([]);
    expect(h.activity().at(-1)).toMatchObject({ action: 'deleted AutoPing item 1', result: 'ok' });
  });

  it('refuses bad input and missing items without changing anything, and records the failure', async () => {
    const emu = await emulator({ autoping: true });
    const h = newCore();
    const { id } = await addController(h, emu);
    const bad = failed(
      await h.call('autoping/save', { controllerId: id, item: { ...ITEM, addresses: ['no spaces'] } }),
    );
    expect(bad.code).toBe('BAD_INPUT');
    expect(bad.message).toContain('host name or IP address');
    const missing = failed(await h.call('autoping/remove', { controllerId: id, number: 2 }));
    expect(missing).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('no AutoPing item 2'),
    });
    expect(h.activity().at(-1)).toMatchObject({ action: 'deleted AutoPing item 2', result: 'error' });
    expect(emu.device.autoping().items).toEqual([]);
  });

  it('says the controller has no AutoPing, with what to do', async () => {
    // Explicitly without: the real-unit profile (the real-unit project) turns AutoPing on.
    const emu = await emulator({ autoping: false });
    const h = newCore();
    const { id } = await addController(h, emu);
    const error = failed(await h.call('autoping/list', { controllerId: id }));
    expect(error.code).toBe('UNSUPPORTED_FIRMWARE');
    expect(error.message).toContain('has no AutoPing');
    expect(error.action).toBeTruthy();
  });
});

/**
 * The Electron tray with the real Core and an emulated controller (issue 16 item 11): a meter over its
 * limit puts a breach line in the menu, the attention icon and a tooltip saying so; back inside, they go.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's meter map (platform ids on real
 * units).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlugboardTray, type TrayElectron } from '../../src-main/shell/tray';
import { addController, cleanUp, emulator, meterKey, newCore } from '../core/harness';

afterEach(cleanUp);

function fakeElectron() {
  const record = { menus: [] as { id: string; label: string }[][], images: [] as string[], tooltip: '' };
  const electron = {
    Tray: class {
      constructor(image: { path: string }) {
        record.images.push(image.path);
      }
      setContextMenu(menu: { id: string; label: string }[]) {
        record.menus.push(menu);
      }
      setImage(image: { path: string }) {
        record.images.push(image.path);
      }
      setToolTip(text: string) {
        record.tooltip = text;
      }
      destroy() {}
    },
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    nativeTheme: { shouldUseDarkColors: false, on: () => undefined },
  } as unknown as TrayElectron;
  return { electron, record };
}

describe('tray and meter limits', () => {
  it('shows a breach line, the attention icon and tooltip while a meter is over its limit', async () => {
    const emu = await emulator();
    const h = newCore();
    // Every read judged at once (no hold time): the tray follows the breach as it comes and goes.
    await h.ok('settings/set', { pollIntervalMs: 500, meterLimitHoldSeconds: 0 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const voltage = meterKey(emu, 'buses.0.voltage');
    emu.device.setMeter(voltage, 130);
    const { electron, record } = fakeElectron();
    const tray = new PlugboardTray({
      electron,
      core: h.core,
      iconDir: '/icons',
      window: { show: vi.fn(), hide: vi.fn(), isVisible: () => true },
      quit: vi.fn(),
      log: () => undefined,
      coalesceMs: 20,
    });
    const breachLine = () => record.menus.at(-1)?.find((item) => item.id.startsWith('breach:'))?.label;
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: voltage, min: null, max: 125 }],
    });
    await vi.waitFor(() => expect(breachLine()).toBe('⚠ Bench A: AC voltage above the maximum of 125 V'), {
      timeout: 15_000,
    });
    expect(record.images.at(-1)).toBe('/icons/tray-light-offline.png');
    expect(record.tooltip).toBe('Plugboard: a meter is outside its limits');

    emu.device.setMeter(voltage, 120);
    await vi.waitFor(() => expect(breachLine()).toBeUndefined(), { timeout: 15_000 });
    expect(record.tooltip).not.toMatch(/limits/);
    expect(record.images.at(-1)).not.toBe('/icons/tray-light-offline.png');
    tray.dispose();
  });
});

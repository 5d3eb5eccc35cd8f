/**
 * The built desktop app under the Electron stand-in (issue 16 item 10): quitting while a sequence runs
 * asks first. "Keep running" keeps the app and the run going; "Stop and quit" ends the run after its
 * current step, records where it stopped in the lab store, and the next start shows it once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SequenceRun } from '../../src-preload/contract';
import { openLabRecords } from '../../src-main/core/index';
import { cleanUp, emulator } from '../core/harness';
import type { RunningEmulator } from '../../src-main/emulator';
import { APP_TIMEOUT, eventually, exitOf, startDesktopApp, until, type DesktopApp } from './desktop-app';

/** The sequence runs in the config folder's lab store, as the app last wrote them. */
async function storedRuns(configDir: string): Promise<SequenceRun[]> {
  const records = await openLabRecords(configDir, '0.0.0-test', () => undefined, Date.now(), {});
  try {
    return records.sequenceRuns.readAll().map((stored) => stored.run);
  } finally {
    await records.store.close();
  }
}

describe('Quitting the desktop app during a sequence', () => {
  let home: string;
  let configDir: string;
  let rack: RunningEmulator;
  let app: DesktopApp;
  let page: Page;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-seq-'));
    configDir = join(home, 'plugboard-config');
    rack = await emulator({ initialStates: Array<boolean>(8).fill(false) });
    app = await startDesktopApp({ home, configDir });
    page = await app.page();
  });

  afterAll(async () => {
    await app?.close();
    await cleanUp();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('asks first; Keep running keeps it; Stop and quit records where it stopped; the next start shows it', async () => {
    const runId = await page.evaluate(async (url) => {
      const added = await window.plugboard.controllers.add({
        name: 'Rack A',
        url,
        auth: { kind: 'digest', user: 'admin', password: '1234' },
      });
      if (!added.ok) throw new Error(added.error.message);
      const id = added.value.id;
      const saved = await window.plugboard.sequences.save({
        name: 'Rack 7 power-on',
        steps: [
          { controllerId: id, outlets: [1], wait: { kind: 'delay', seconds: 600 } },
          { controllerId: id, outlets: [2], wait: { kind: 'delay', seconds: 0 } },
        ],
      });
      if (!saved.ok) throw new Error(saved.error.message);
      const run = await window.plugboard.sequences.run({ id: saved.value.id, action: 'on' });
      if (!run.ok) throw new Error(run.error.message);
      return run.value.runId;
    }, rack.url);
    await eventually(() => rack.device.outlet(0).state).toBe(true);

    await app.quit();
    const asked = await until(async () => (await app.state()).dialogs[0], 'the quit question');
    expect(asked).toMatchObject({
      title: 'A sequence is running',
      message: "Sequence 'Rack 7 power-on' (step 1 of 2) is still running. Quit anyway?",
      buttons: ['Keep running', 'Stop and quit'],
    });
    await app.answerDialog(0);
    const runs = await page.evaluate(() => window.plugboard.sequences.runs({}));
    expect(runs.ok && runs.value.map((r) => [r.runId, r.status])).toEqual([[runId, 'running']]);
    expect(app.hasQuit()).toBe(false);
    expect((await app.state()).windows).toHaveLength(1);

    await app.quit();
    await until(async () => (await app.state()).dialogs[1], 'the second quit question');
    await app.answerDialog(1);
    await app.quitted;
    await app.release();
    expect(await exitOf(app)).toBe(0);
    const [stored, ...more] = await storedRuns(configDir);
    expect(more).toEqual([]);
    const sentence =
      "Sequence 'Rack 7 power-on' was stopped because Plugboard quit before step 2 of 2: step 1 done; steps done stay switched on.";
    expect(stored).toMatchObject({ runId, status: 'stopped', message: sentence });
    expect(rack.device.outlet(1).state).toBe(false);

    await app.close();
    app = await startDesktopApp({ home, configDir });
    page = await app.page();
    await page
      .getByRole('navigation', { name: 'Controllers and pages' })
      .getByRole('button', { name: 'Overview' })
      .click({ timeout: APP_TIMEOUT });
    const notice = page.getByRole('status').filter({ hasText: sentence });
    await notice.waitFor({ timeout: APP_TIMEOUT });
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await eventually(async () => storedRuns(configDir)).toEqual([]);
  });
});

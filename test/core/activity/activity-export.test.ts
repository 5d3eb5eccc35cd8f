/** The activity log's CSV: written by the one CSV writer (src-main/shared/csv.ts), formula-safe. */
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { activityCsv } from '../../../src-main/core/activity/activity-export';

describe('the activity export', () => {
  it('activity: every text cell is guarded, numbers (outlet, batch, count) are not', () => {
    const entry: ActivityEntry = {
      id: 7,
      time: Date.UTC(2026, 10, 24, 8, 0, 0),
      controllerId: 'c1',
      controllerName: '=Bench',
      outlet: 3,
      action: '+on',
      source: 'pdudaemon-tcp',
      who: '@client',
      result: 'error',
      error: { code: 'RESERVED', message: '-reserved' },
      outletName: '=Router',
      batch: 7,
      count: 12,
      lastTime: Date.UTC(2026, 10, 24, 8, 0, 30),
    };
    expect(activityCsv([entry]).split('\r\n')[1]).toBe(
      "2026-11-24T08:00:00.000Z,'=Bench,3,'+on,pdudaemon-tcp,'@client,error,RESERVED,'-reserved,'=Router,7,12,2026-11-24T08:00:30.000Z",
    );
  });
});

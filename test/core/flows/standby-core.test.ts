/**
 * A Core under a leadership it does not hold (leadership-wiring.ts): no session runs, so nothing polls
 * the unit; the states say why; every door that changes something (the window, the tray, the JSON API,
 * its link, pdudaemon) refuses with the Core's one STANDBY sentence and sends the unit nothing; reads
 * still answer. When it leads again its sessions start and switches go through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerState } from '../../../src-preload/contract';
import type { Caller } from '../../../src-preload/model';
import { standbyError, type Leadership, type ServiceName } from '../../../src-main/core/index';
import { connectRemoteCore } from '../../../src-main/link';
import { startApiListener } from '../../../src-main/serve/api';
import { ServiceMetrics } from '../../../src-main/serve/metrics';
import { listenPdudaemon } from '../../../src-main/serve/pdudaemon-server';
import { parseTokens, type Token } from '../../../src-main/serve/tokens';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

const SECRET = 'operator-secret-0123456789abcdef';
const LEADER: ServiceName = { name: 'lab-a', address: 'https://lab-a.example.org:16422' };
const SENTENCE =
  'This Plugboard service (lab-b) is a standby: lab-a leads the lab. Send changes to https://lab-a.example.org:16422.';

/** A leadership the test hands over and back, told as the lease's would (leading after the listeners). */
class HandedLeadership implements Leadership {
  readonly self = 'lab-b';
  #leads = true;
  readonly #listeners = new Set<Parameters<Leadership['onChange']>[0]>();
  leads = () => this.#leads;
  leader = () => (this.#leads ? { name: this.self, address: null } : LEADER);
  assertMayWrite(): void {
    if (!this.#leads) throw standbyError(this.self, this.leader(), 'unused');
  }
  onChange(listener: Parameters<Leadership['onChange']>[0]): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  async hand(leads: boolean): Promise<void> {
    if (!leads) this.#leads = false;
    for (const listener of this.#listeners) await listener(leads, leads ? LEADER : null);
    this.#leads = leads;
  }
}

const operator: Caller = { door: 'json-api', who: 'ops', role: 'operator', credential: 'token' };

describe('a standby Core', () => {
  it('polls nothing, says why, refuses changes at every door in one sentence, answers reads, and leads again', async () => {
    const emu = await emulator();
    const clock = new FakeClock(Date.now());
    const leadership = new HandedLeadership();
    const h = newCore({ leadership, clock });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const tokens = parseTokens(`ops[operator]:${SECRET}\n`, 'tokens') as Token[];
    const api = await startApiListener({
      core: h.core,
      spec: { name: 'api', host: '127.0.0.1', port: 0 },
      allow: null,
      tokens,
      hostNames: [],
      tls: null,
      metrics: new ServiceMetrics(),
      log: () => undefined,
    });
    const origin = /api: (http:\/\/[^/]+)\//.exec(api.lines[0]!)![1]!;
    const pdudaemon = await listenPdudaemon(h.core, {
      port: 0,
      log: () => undefined,
      confirmTimeoutMs: 5000,
    });
    try {
      await leadership.hand(false);
      const standby = await until(h, id, (s) => s.problem?.code === 'STANDBY');
      expect(standby).toMatchObject({ status: 'error', outlets: [], problem: { message: SENTENCE } });
      const requests = emu.device.stats.requests;
      // A minute of the Core's time: a running session would have polled about twenty times.
      await clock.advance(60_000);
      expect(emu.device.stats.requests).toBe(requests);

      const sentences: Record<string, string> = {};
      const refusal = async (door: string, work: Promise<unknown>) => {
        try {
          await work;
          sentences[door] = 'done';
        } catch (error) {
          sentences[door] = `${(error as { code: string }).code}: ${(error as Error).message}`;
        }
      };
      const off = { controllerId: id, outlets: [1], on: false };
      await refusal('window', h.core.handlers['outlets/set'](off));
      await refusal('tray', h.core.handlersAs('tray')['outlets/cycle']({ controllerId: id, outlet: 1 }));
      await refusal('operator', h.core.handlersAs(operator)['outlets/set'](off));
      await refusal(
        'reservation',
        h.core.handlers['reservations/take']({ controllerId: id, minutes: 5 } as never),
      );
      await refusal('unit read', h.core.handlers['system/tree']({ controllerId: id, path: '' } as never));
      const link = await connectRemoteCore(origin, { token: SECRET });
      try {
        await refusal('link', link.handlersAs({ door: 'cli', who: 'ops' })['outlets/set'](off));
      } finally {
        link.close();
      }
      const json = await fetch(`${origin}/api/v1/controllers/Bench%20A/outlets/1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'off' }),
      });
      const pdu = await fetch(
        `http://127.0.0.1:${pdudaemon.port}/power/control/off?hostname=Bench%20A&port=1`,
      );
      const standbySentence = `STANDBY: ${SENTENCE}`;
      expect(sentences).toEqual({
        window: standbySentence,
        tray: standbySentence,
        operator: standbySentence,
        reservation: standbySentence,
        'unit read': standbySentence,
        link: standbySentence,
      });
      expect(json.status).toBe(503);
      expect(((await json.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'STANDBY',
        message: SENTENCE,
      });
      expect(pdu.status).toBe(503);
      expect((await pdu.text()).trim()).toBe(SENTENCE);
      // Reads answer from what the store and the saved records hold.
      expect((await h.core.handlers['controllers/list']({})).map((c) => c.name)).toEqual(['Bench A']);
      expect(Array.isArray(await h.core.handlers['activity/list']({}))).toBe(true);
      expect(emu.device.stats.requests).toBe(requests);
      expect(emu.device.stats.log.filter((e) => e.method !== 'GET')).toEqual([]);

      await leadership.hand(true);
      // Its session starts again: the connect's steps run on the Core's clock.
      for (let step = 0; step < 100 && h.state(id)?.status !== 'online'; step++) await clock.advance(100);
      await until(h, id, (s: ControllerState) => s.status === 'online');
      await h.ok('outlets/set', off);
      expect(emu.device.stats.log.filter((e) => e.method !== 'GET').length).toBeGreaterThan(0);
    } finally {
      await pdudaemon.close();
      await api.close(1000);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, header, json, python } from './clients';

let emu: RunningEmulator;
let api: string;
const csrf = { 'X-CSRF': 'x' };

beforeAll(async () => {
  emu = await startEmulator({
    cycleDelay: 0.3,
    sequenceDelay: 0.05,
    initialStates: [true, false, true, false, true, false, true, false],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

describe('depth limiting', () => {
  it('Range: dli-depth=1 on the root answers 206 with deeper levels as {"$ref": …}', async () => {
    const answer = await curl(`${api}/`, { headers: { Range: 'dli-depth=1', Accept: 'application/json' } });
    expect(answer.status).toBe(206);
    const tree = json(answer) as Record<string, unknown>;
    expect(tree.relay).toEqual({ $ref: '/restapi/relay/' });
    expect(tree.meter).toEqual({ $ref: '/restapi/meter/' });
    expect(Object.keys(tree)).toEqual(
      expect.arrayContaining(['relay', 'config', 'auth', 'cred', 'script', 'system', 'meter']),
    );
  });

  it('depth 2 inlines scalars and refers to containers below', async () => {
    const tree = json(await curl(`${api}/relay/`, { headers: { Range: 'dli-depth=2' } })) as Record<
      string,
      unknown
    >;
    expect(tree.name).toBe('DLI Controller');
    expect((tree.outlets as unknown[])[0]).toEqual({ $ref: '/restapi/relay/outlets/0/' });
  });

  it('without Range the whole subtree comes back with 200; a bad depth is 400', async () => {
    const answer = await curl(`${api}/relay/outlets/0/`);
    expect(answer.status).toBe(200);
    expect(Object.keys(json(answer) as object)).toEqual([
      'critical',
      'transient_state',
      'state',
      'physical_state',
      'name',
      'locked',
      'cycle_delay',
    ]);
    expect((await curl(`${api}/`, { headers: { Range: 'dli-depth=x' } })).status).toBe(400);
  });
});

describe('bodies and status codes', () => {
  it('takes form value=…, raw JSON and text/plain alike, answering writes with 204 and no body', async () => {
    const form = await curl(`${api}/relay/outlets/1/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(form.status).toBe(204);
    expect(form.body).toBe('');
    expect(emu.device.outlet(1).transientState).toBe(true);
    const raw = await curl(`${api}/relay/outlets/1/transient_state/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: 'false',
    });
    expect(raw.status).toBe(204);
    expect(emu.device.outlet(1).transientState).toBe(false);
    const text = await curl(`${api}/relay/name/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'text/plain' },
      data: 'Bench B',
    });
    expect(text.status).toBe(204);
    expect(json(await curl(`${api}/relay/name/`))).toBe('Bench B');
    const [py] = await python({
      base: emu.url,
      requests: [
        {
          method: 'PUT',
          path: '/restapi/relay/name/',
          headers: { ...csrf, 'Content-Type': 'application/json' },
          body: '"Bench C"',
        },
      ],
    });
    expect(py?.status).toBe(204);
    expect(emu.device.config().name).toBe('Bench C');
  });

  it('answers a bad value or body with 400 and a JSON body naming the problem', async () => {
    const value = await curl(`${api}/relay/outlets/1/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=maybe',
    });
    expect(value.status).toBe(400);
    expect(json(value)).toEqual({ error: 'bad_value', message: 'state must be true or false.' });
    const body = await curl(`${api}/relay/outlets/1/state/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: '{oops',
    });
    expect(body.status).toBe(400);
    expect(json(body)).toMatchObject({ error: 'bad_body' });
    const none = await curl(`${api}/relay/outlets/1/state/`, { method: 'PUT', headers: csrf });
    expect(none.status).toBe(400);
    const empty = await curl(`${api}/relay/outlets/1/name/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=',
    });
    expect(empty.status).toBe(400);
    const type = await curl(`${api}/relay/outlets/1/state/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'image/png' },
      data: 'x',
    });
    expect(type.status).toBe(415);
  });

  it('answers a wrong method with 405, an Allow header and a JSON body', async () => {
    const write = await curl(`${api}/relay/outlets/0/physical_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(write.status).toBe(405);
    expect(header(write, 'allow')).toBe('GET, HEAD');
    expect(json(write)).toMatchObject({ error: 'method_not_allowed' });
    const read = await curl(`${api}/relay/outlets/0/cycle/`);
    expect(read.status).toBe(405);
    expect(header(read, 'allow')).toBe('POST');
    expect((await curl(`${api}/config/serial/`, { method: 'DELETE', headers: csrf })).status).toBe(405);
  });

  it('PATCH takes form fields, a JSON object or a JSON patch, all checked before any is applied', async () => {
    const form = await curl(`${api}/relay/outlets/2/`, {
      method: 'PATCH',
      headers: csrf,
      data: 'name=Heater&critical=true',
    });
    expect(form.status).toBe(204);
    expect(emu.device.outlet(2)).toMatchObject({ name: 'Heater', critical: true });
    const patch = await curl(`${api}/relay/outlets/2/`, {
      method: 'PATCH',
      headers: { ...csrf, 'Content-Type': 'application/json-patch+json' },
      data: JSON.stringify([{ op: 'replace', path: '/name', value: 'Oven' }]),
    });
    expect(patch.status).toBe(204);
    expect(emu.device.outlet(2).name).toBe('Oven');
    const half = await curl(`${api}/relay/outlets/2/`, {
      method: 'PATCH',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: JSON.stringify({ name: 'Fridge', critical: 'very' }),
    });
    expect(half.status).toBe(400);
    expect(emu.device.outlet(2)).toMatchObject({ name: 'Oven', critical: true });
  });

  it('returns the new value with Prefer: return=representation', async () => {
    const answer = await curl(`${api}/relay/outlets/2/name/`, {
      method: 'PUT',
      headers: { ...csrf, Prefer: 'return=representation' },
      data: 'value=Kettle',
    });
    expect(answer.status).toBe(200);
    expect(json(answer)).toBe('Kettle');
  });

  it('serves a browsable HTML page to browsers', async () => {
    const answer = await curl(`${api}/relay/`, {
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toContain('text/html');
    expect(answer.body).toContain('href="/restapi/relay/outlets/"');
  });
});

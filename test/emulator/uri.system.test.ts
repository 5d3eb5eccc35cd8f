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

describe('CSRF protection', () => {
  it('refuses a write without X-CSRF or X-Requested-With with 403 and changes nothing', async () => {
    const answer = await curl(`${api}/relay/outlets/1/state/`, { method: 'PUT', data: 'value=true' });
    expect(answer.status).toBe(403);
    expect(json(answer)).toMatchObject({ error: 'csrf' });
    expect(emu.device.outlet(1).state).toBe(false);
  });

  it('accepts X-CSRF with any value, and X-Requested-With: XMLHttpRequest', async () => {
    expect(
      (
        await curl(`${api}/relay/outlets/1/name/`, {
          method: 'PUT',
          headers: { 'X-CSRF': '1' },
          data: 'value=Lamp',
        })
      ).status,
    ).toBe(204);
    const xhr = await curl(`${api}/relay/outlets/1/name/`, {
      method: 'PUT',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      data: 'value=Lab%20lamp',
    });
    expect(xhr.status).toBe(204);
    expect(emu.device.outlet(1).name).toBe('Lab lamp');
  });

  it('refuses cross-origin preflights', async () => {
    const answer = await curl(`${api}/relay/`, {
      method: 'OPTIONS',
      auth: 'none',
      headers: { Origin: 'http://evil.example' },
    });
    expect(answer.status).toBe(403);
  });
});

describe('verb tunnelling', () => {
  it('treats POST with X-HTTP-Method: PUT as a PUT', async () => {
    const answer = await curl(`${api}/relay/outlets/3/transient_state/`, {
      method: 'POST',
      headers: { ...csrf, 'X-HTTP-Method': 'PUT' },
      data: 'value=true',
    });
    expect(answer.status).toBe(204);
    expect(emu.device.outlet(3).transientState).toBe(true);
  });

  it('treats POST with X-HTTP-Method: GET as a read, and DELETE as a delete', async () => {
    const read = await curl(`${api}/relay/outlets/3/name/`, {
      method: 'POST',
      headers: { ...csrf, 'X-HTTP-Method': 'GET' },
    });
    expect(read.status).toBe(200);
    expect(json(read)).toBe('Outlet 4');
    emu.device.addUser({ name: 'tunnelled', password: 'pw' });
    const del = await curl(`${api}/auth/users/name=tunnelled/`, {
      method: 'POST',
      headers: { ...csrf, 'X-HTTP-Method': 'DELETE' },
    });
    expect(del.status).toBe(207);
    expect(emu.device.users().map((u) => u.name)).not.toContain('tunnelled');
  });
});

describe('URIs', () => {
  it('redirects a URI without the trailing slash (307, Location with the slash)', async () => {
    const answer = await curl(`${api}/relay/outlets/0/state`);
    expect(answer.status).toBe(307);
    expect(header(answer, 'location')).toBe('/restapi/relay/outlets/0/state/');
    const [py] = await python({ base: emu.url, requests: [{ path: '/restapi/config/serial' }] });
    expect(py?.status).toBe(307);
  });

  it('percent-decodes each segment (filters on a name with a space, encoded keys)', async () => {
    emu.device.setOutlet(6, { name: 'Scope & probe' });
    const answer = await curl(`${api}/relay/outlets/name=Scope%20%26%20probe/name/`);
    expect(answer.status).toBe(207);
    expect(json(answer)).toEqual(['Scope & probe']);
    const encoded = await curl(`${api}/%72elay/outlets/6/n%61me/`);
    expect(json(encoded)).toBe('Scope & probe');
  });

  it('answers broken percent-encoding and query strings with 400', async () => {
    const broken = await curl(`${api}/relay/outlets/%zz/state/`);
    expect(broken.status).toBe(400);
    expect(json(broken)).toMatchObject({ error: 'bad_uri' });
    const badUtf8 = await curl(`${api}/relay/outlets/%E0%A4/state/`);
    expect(badUtf8.status).toBe(400);
    const query = await curl(`${api}/relay/outlets/?x=1`);
    expect(query.status).toBe(400);
    expect(json(query)).toMatchObject({ error: 'query_not_allowed' });
  });

  it('answers unknown paths with 404 and a small JSON body', async () => {
    const answer = await curl(`${api}/relay/outlets/99/state/`);
    expect(answer.status).toBe(404);
    expect(json(answer)).toEqual({
      error: 'not_found',
      message: expect.stringContaining('/restapi/relay/outlets/99/'),
    });
    expect((await curl(`${api}/nothing/here/`)).status).toBe(404);
  });
});

describe('matrix URIs', () => {
  it('all; returns 207, a JSON array and one Link: <uri>; rel=item per element', async () => {
    const answer = await curl(`${api}/relay/outlets/all;/state/`);
    expect(answer.status).toBe(207);
    const states = json(answer) as boolean[];
    expect(states).toEqual(emu.device.outlets().map((o) => o.state));
    expect(answer.headers.link).toEqual(
      states.map((_, i) => `</restapi/relay/outlets/${i}/state/>; rel=item`),
    );
  });

  it('=0,4 selects listed indices in order, =2 is a one-element array', async () => {
    expect(json(await curl(`${api}/relay/outlets/=4,0/name/`))).toEqual(['Outlet 5', 'Outlet 1']);
    const one = await curl(`${api}/relay/outlets/=2/state/`);
    expect(one.status).toBe(207);
    expect(json(one)).toEqual([true]);
  });

  it('=name,physical_state projects fields into one flat array', async () => {
    const answer = await curl(`${api}/relay/outlets/all;/=name,physical_state/`);
    const expected = emu.device.outlets().flatMap((o) => [o.name, o.physicalState]);
    expect(json(answer)).toEqual(expected);
    expect(answer.headers.link).toHaveLength(expected.length);
    expect(answer.headers.link?.[1]).toBe('</restapi/relay/outlets/0/physical_state/>; rel=item');
  });

  it('config/=version/ and config/=brand_name,serial/ project object fields', async () => {
    expect(json(await curl(`${api}/config/=version/`))).toEqual(['1.12.14.0']);
    expect(json(await curl(`${api}/config/=brand_name,serial/`))).toEqual([
      'Web Power Switch',
      emu.device.serial,
    ]);
  });

  it('filters elements by a field value (auth/users/name=fred/, is_admin=true)', async () => {
    emu.device.addUser({ name: 'fred', password: 'pw' });
    expect(json(await curl(`${api}/auth/users/name=fred/name/`))).toEqual(['fred']);
    expect(json(await curl(`${api}/auth/users/is_admin=true/name/`))).toEqual(['admin']);
    expect(json(await curl(`${api}/auth/users/name=nobody/name/`))).toEqual([]);
  });

  it('a matrix PUT answers 207 with null per written element', async () => {
    const answer = await curl(`${api}/relay/outlets/=5,7/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(answer.status).toBe(207);
    expect(json(answer)).toEqual([null, null]);
    expect(answer.headers.link).toEqual([
      '</restapi/relay/outlets/5/transient_state/>; rel=item',
      '</restapi/relay/outlets/7/transient_state/>; rel=item',
    ]);
    expect(emu.device.outlet(5).transientState && emu.device.outlet(7).transientState).toBe(true);
  });

  it('rejects matrix syntax it does not know with 400', async () => {
    expect((await curl(`${api}/relay/outlets/=0,,1/state/`)).status).toBe(400);
    expect((await curl(`${api}/relay/outlets/some;thing/state/`)).status).toBe(400);
  });

  it('names an unknown selector, says what is wrong with it, and changes nothing', async () => {
    const before = emu.device.outlets().map((o) => o.state);
    const combined = await curl(`${api}/relay/outlets/all;locked=false/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(combined.status).toBe(400);
    const body = json(combined) as { error: string; message: string; selector: string };
    expect(body).toMatchObject({ error: 'unknown_selector', selector: 'all;locked=false' });
    expect(body.message).toContain('The selector "all;locked=false" is not one this controller knows');
    expect(body.message).toContain('all; takes nothing after it');
    expect(body.message).toContain('write the filter alone: locked=false');
    expect(emu.device.outlets().map((o) => o.state)).toEqual(before);
    // The filter alone is what the controller knows.
    expect((await curl(`${api}/relay/outlets/locked=false/state/`)).status).toBe(207);

    for (const selector of ['some;thing', 'all;;', '0,4']) {
      const answer = await curl(`${api}/relay/outlets/${selector}/state/`);
      expect(answer.status).toBe(400);
      expect(json(answer)).toMatchObject({
        error: 'unknown_selector',
        selector,
        message: expect.stringMatching(/all; \(every element\), =0,4 .* or field=value/),
      });
    }
  });
});

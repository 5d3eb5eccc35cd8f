/**
 * The window's place in its address: `#/<core>/<page>` and `#/<core>/<controller>/<section>`; anything
 * else (an empty address, a hand-mangled one) is the Overview, never an error.
 */
import { expect, test } from 'vitest';
import { parsePlace, placeHash } from '../../src-renderer/lib/route';

test('pages and controllers round-trip through the address', () => {
  for (const place of [
    { core: 'local', view: 'overview', section: null },
    { core: 'local', view: 'inventory', section: null },
    { core: 'local', view: 'c1a2b3c4', section: 'meters' },
    { core: 'lab-7', view: 'c1a2b3c4', section: 'outlets' },
  ])
    expect(parsePlace(placeHash(place))).toEqual(place);
  expect(placeHash({ core: 'local', view: 'c1a2b3c4', section: 'system' })).toBe('#/local/c1a2b3c4/system');
  // A page has no section, whatever the address adds.
  expect(parsePlace('#/local/settings/extra')).toEqual({ core: 'local', view: 'settings', section: null });
});

test('an address that names nothing usable opens the Overview', () => {
  for (const hash of ['', '#', '#/', '#/local', '#/%E0%A4%A/x', '#/local/<script>/outlets', '#/../../etc'])
    expect(parsePlace(hash)).toEqual({ core: 'local', view: 'overview', section: null });
});

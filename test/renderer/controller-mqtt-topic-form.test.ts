/** The MQTT topic root a unit publishes under, in the System tab's connection form. */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import ConnectionForm from '../../src-renderer/lib/components/ConnectionForm.svelte';
import type { ConnectionPatch } from '../../src-renderer/lib/state/controller-actions';
import { summary } from './fixtures';

test('the connection form sets the topic root, refuses a wildcard, and an emptied field removes it', async () => {
  const user = userEvent.setup();
  const patches: ConnectionPatch[] = [];
  render(ConnectionForm, {
    summary: summary({ mqttTopic: 'lab/pdu1' }),
    onsave: async (patch: ConnectionPatch) => (patches.push(patch), { ok: true as const, value: summary() }),
  });
  const form = screen.getByRole('form', { name: 'Connection' });
  const topic = within(form).getByLabelText(/MQTT topic/);
  expect(topic).toHaveValue('lab/pdu1');
  await user.clear(topic);
  await user.type(topic, 'lab/#');
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  expect(within(form).getByText(/The MQTT topic may not contain the wildcards \+ or #/)).toBeVisible();
  expect(patches).toEqual([]);
  await user.clear(topic);
  await user.type(topic, 'rack7/pdu1/');
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  await user.clear(topic);
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  expect(patches).toEqual([{ mqttTopic: 'rack7/pdu1' }, { mqttTopic: null }]);
});

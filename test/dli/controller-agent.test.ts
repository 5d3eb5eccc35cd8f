/**
 * A controller's dispatcher leaves nothing open once closed: not the sockets it opened, and not one its
 * connector opens afterwards (undici's client resumes when a unit closes a connection, as real units do
 * after every answer, and could start a connect after the client was closed).
 */
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src-main/dli/tls-pin';

describe('a closed controller dispatcher', () => {
  it('destroys the sockets it opened, and any socket its connector opens after it was closed', async () => {
    const agent = createDispatcher({ fingerprint: null, controller: 'Bench A' });
    const before = new Socket();
    before.on('error', () => undefined);
    agent.track(before);
    await agent.closeAll();
    expect(before.destroyed).toBe(true);
    const after = new Socket();
    after.on('error', () => undefined);
    agent.track(after);
    expect(after.destroyed).toBe(true);
  });

  it('keeps a socket opened while it is open', async () => {
    const agent = createDispatcher({ fingerprint: null, controller: 'Bench A' });
    const open = new Socket();
    open.on('error', () => undefined);
    agent.track(open);
    expect(open.destroyed).toBe(false);
    open.destroy();
    await agent.closeAll();
  });
});

/**
 * The contract's lab calls on a Core that is not a desk (a lab service, a CLI command, a test's Core):
 * it attaches to no lab. A desk (the desktop app, the web shell on a person's machine) answers them with
 * its labs instead (src-main/desk); here the list is empty and the rest say where labs are attached.
 */
import type { LabHandlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';

function noLabs(): never {
  throw new PlugboardError(
    'BAD_INPUT',
    'This Plugboard attaches to no lab: labs are attached from a desk (the desktop app or `plugboard web` on your computer).',
    undefined,
    {
      action: 'Use "Connect to a lab" in the desktop app, or `plugboard --service URL` on the command line.',
    },
  );
}

export function labHandlers(): LabHandlers {
  return {
    'labs/list': async () => [],
    'labs/add': async () => noLabs(),
    'labs/signIn': async () => noLabs(),
    'labs/signInWithProvider': async () => noLabs(),
    'labs/signOut': async () => noLabs(),
    'labs/remove': async () => noLabs(),
    'labs/call': async () => noLabs(),
  };
}

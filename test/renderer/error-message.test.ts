import { render, screen } from '@testing-library/svelte';
import { expect, test } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src-preload/model';
import ErrorMessage from '../../src-renderer/lib/components/ErrorMessage.svelte';
import { adviceFor } from '../../src-renderer/lib/errors';

test('every error code of the contract has its own explanation and next step', () => {
  const titles = ERROR_CODES.map((code) => adviceFor({ code, message: '' }).title);
  expect(new Set(titles).size).toBe(ERROR_CODES.length);
});

const cases: [ErrorCode, string, RegExp, RegExp][] = [
  [
    'AUTH_FAILED',
    'Wrong user name or password for Bench A.',
    /did not accept the user name or password/,
    /Check the credentials/,
  ],
  ['FORBIDDEN', 'User tech may not switch outlet 4.', /not allowed to do that/, /administrator/],
  [
    'API_DISABLED',
    'Bench A answers, but its REST-style API is off.',
    /REST-style API is switched off/,
    /Allow REST-style API/,
  ],
  ['LOCKED', 'Outlet 3 is locked.', /outlet is locked/, /keypad or its own web page/],
  [
    'UNREACHABLE',
    'Nothing answered at 192.168.0.100.',
    /Nothing answered at that address/,
    /has power and a network cable/,
  ],
  ['TIMEOUT', 'Bench A did not answer within 5 s.', /did not answer in time/, /wait a moment and retry/],
  [
    'TLS_CHANGED',
    'The certificate of Bench A changed.',
    /not the one Plugboard trusted/,
    /compare the new fingerprint/,
  ],
  [
    'TLS_UNTRUSTED',
    'First HTTPS connection to Bench A.',
    /certificate Plugboard has not seen/,
    /then accept it/,
  ],
  [
    'BAD_INPUT',
    'url must start with http:// or https://.',
    /could not use what was entered/,
    /Correct the field/,
  ],
  ['DEVICE_ERROR', 'Bench A answered 500.', /answered with an error/, /reboot the controller/],
  [
    'NOT_A_CONTROLLER',
    'http://10.0.0.5 is a printer.',
    /not a power controller/,
    /Check the address and port/,
  ],
  ['NOT_FOUND', 'No controller with id x.', /no longer knows/, /removed meanwhile/],
  ['CANCELLED', 'Bench A was removed.', /cancelled before it finished/, /retry if it is still needed/],
  ['INTERNAL', 'Unexpected state.', /problem of its own/, /restart Plugboard/],
];

test.each(cases)('%s: the headline, main’s message and what to do', (code, message, title, next) => {
  render(ErrorMessage, { props: { error: { code, message }, context: 'Outlet 3 (Switch) did not change.' } });
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Outlet 3 (Switch) did not change.');
  expect(alert).toHaveTextContent(title);
  expect(alert).toHaveTextContent(message);
  expect(alert).toHaveTextContent(/What to do:/);
  expect(alert).toHaveTextContent(next);
});

test('old firmware names the version needed', () => {
  render(ErrorMessage, {
    error: {
      code: 'UNSUPPORTED_FIRMWARE',
      message: 'Bench A runs 1.9.2.',
      detail: { requiredFirmware: '1.11.6.0' },
    },
  });
  expect(screen.getByRole('alert')).toHaveTextContent('Update the firmware to 1.11.6.0 or newer');
});

test('what main says to do for this error replaces the general advice for its code', () => {
  const message = 'Cannot reach Rack 7 at http://127.0.0.1:35419 (connection refused).';
  const action = 'Check the address and that the controller is powered and on the network.';
  render(ErrorMessage, {
    props: { error: { code: 'UNREACHABLE', message, action }, context: 'Rack 7 is offline.' },
  });
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Nothing answered at that address.');
  expect(alert).toHaveTextContent(message);
  expect(screen.getByText(/^What to do:/)).toHaveTextContent(`What to do: ${action}`);
  expect(alert).not.toHaveTextContent(/has power and a network cable/);
});

test('a message is never read for what to do: without an action, the general advice shows', () => {
  // Two sentences, the second one sounding like advice: still only what went wrong.
  const message = 'Bench A did not answer within 5 s. It was rebooting.';
  render(ErrorMessage, { error: { code: 'TIMEOUT', message } });
  expect(screen.getByText(/^What to do:/)).toHaveTextContent(
    'What to do: It may be busy or rebooting: wait a moment and retry.',
  );
});

test('a next step given by the place is shown instead of main’s action', () => {
  render(ErrorMessage, {
    error: {
      code: 'AUTH_FAILED',
      message: 'Wrong user name or password for Bench A (user "admin").',
      action: 'Check both and try again.',
    },
    next: 'Correct the user name or password above.',
  });
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('What to do: Correct the user name or password above.');
  expect(alert).not.toHaveTextContent('Check both and try again.');
});

test('a standing problem is shown without interrupting the screen reader', () => {
  render(ErrorMessage, { error: { code: 'UNREACHABLE', message: 'x' }, live: false });
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByText('Nothing answered at that address.')).toBeVisible();
});

test('a save refused for want of disk space says the disk is full, not that Plugboard broke', () => {
  const advice = adviceFor({
    code: 'INTERNAL',
    message:
      'Plugboard could not save its settings: the disk holding /var/lib/plugboard is full, so nothing was changed.',
    detail: { diskFull: true },
  });
  expect(advice.title).toBe('The disk is full, so Plugboard could not save.');
  expect(advice.next).toMatch(/Free some space/);
});

import { render, screen } from '@testing-library/svelte';
import { expect, test } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src-preload/model';
import ErrorMessage from '../../src-renderer/lib/components/ErrorMessage.svelte';
import { adviceCodes, adviceFor, saysWhatToDo } from '../../src-renderer/lib/errors';

test('every error code of the contract has its own explanation and next step', () => {
  expect([...adviceCodes].sort()).toEqual([...ERROR_CODES].sort());
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

test('a message that already says what to do is not followed by the general advice repeating it', () => {
  const message =
    'Cannot reach Rack 7 at http://127.0.0.1:35419 (connection refused). Check the address and that the controller is powered and on the network.';
  render(ErrorMessage, { props: { error: { code: 'UNREACHABLE', message }, context: 'Rack 7 is offline.' } });
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('Nothing answered at that address.');
  expect(alert).toHaveTextContent(message);
  expect(alert).not.toHaveTextContent('What to do:');
  expect(alert).not.toHaveTextContent(/has power and a network cable/);
});

test('a next step given by the place is shown even when the message has its own', () => {
  render(ErrorMessage, {
    error: {
      code: 'AUTH_FAILED',
      message: 'Wrong password for Bench A (user "admin"). Check both and try again.',
    },
    next: 'Correct the user name or password above.',
  });
  expect(screen.getByRole('alert')).toHaveTextContent('What to do: Correct the user name or password above.');
});

test.each([
  ['Outlet 3 is locked.', false],
  ['Bench A runs 1.9.2.', false],
  ['Outlet 9 does not exist on Bench A: it has outlets 1 to 8.', false],
  ['"x" must start with http:// or https://.', false],
  [
    'Bench A answered with an unexpected status 418 while trying to read outlets (the controller says: no).',
    false,
  ],
  ['Bench A did not answer within 5 s. Check that it is powered and on the network.', true],
  ['Nothing was switched on Bench A: outlet 2 is locked. Unlock it on the keypad, or leave it out.', true],
  ['Bench A refused the access token. "Client id, a dot, then the secret" must be complete.', true],
])('saysWhatToDo(%j) is %s', (message, expected) => {
  expect(saysWhatToDo(message)).toBe(expected);
});

test('a standing problem is shown without interrupting the screen reader', () => {
  render(ErrorMessage, { error: { code: 'UNREACHABLE', message: 'x' }, live: false });
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.getByText('Nothing answered at that address.')).toBeVisible();
});

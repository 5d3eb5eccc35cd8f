import type { ContractError, ErrorCode } from '../../src-preload/model';

/** What a person sees for an error: a headline and the general next step for its code. Main's message goes between. */
export interface ErrorAdvice {
  title: string;
  next: string;
}

const ADVICE: Record<ErrorCode, ErrorAdvice> = {
  AUTH_FAILED: {
    title: 'The controller did not accept the user name or password.',
    next: 'Check the credentials in System → Connection (or on the controller’s Users page) and save them again.',
  },
  FORBIDDEN: {
    title: 'This user is not allowed to do that on the controller.',
    next: 'Log in as an administrator, or ask one to grant this user access on the Users tab.',
  },
  API_DISABLED: {
    title: 'The controller’s REST-style API is switched off.',
    next: 'On the controller’s own web page, open External APIs, tick “Allow REST-style API”, then retry.',
  },
  LOCKED: {
    title: 'The outlet is locked on the controller.',
    next: 'Only the controller’s keypad or its own web page can change a locked outlet.',
  },
  UNREACHABLE: {
    title: 'Nothing answered at that address.',
    next: 'Check the address, that the controller has power and a network cable, and that this computer is on the same network.',
  },
  TIMEOUT: {
    title: 'The controller did not answer in time.',
    next: 'It may be busy or rebooting: wait a moment and retry. If it keeps happening, check the network.',
  },
  TLS_CHANGED: {
    title: 'The controller’s HTTPS certificate is not the one Plugboard trusted before.',
    next: 'If the certificate was replaced or the controller reset, compare the new fingerprint with its web page and trust it; otherwise someone may be intercepting the connection.',
  },
  TLS_UNTRUSTED: {
    title: 'This controller uses a certificate Plugboard has not seen before.',
    next: 'Compare the fingerprint below with the one on the controller’s web page, then accept it.',
  },
  UNSUPPORTED_FIRMWARE: {
    title: 'The controller’s firmware is too old for this.',
    next: 'Update the firmware from Digital Loggers’ support page, then retry.',
  },
  BAD_INPUT: {
    title: 'Plugboard could not use what was entered.',
    next: 'Correct the field named above and try again.',
  },
  DEVICE_ERROR: {
    title: 'The controller answered with an error.',
    next: 'Retry; if it persists, reboot the controller or check its system log.',
  },
  NOT_A_CONTROLLER: {
    title: 'Something answered there, but it is not a power controller with the REST-style API.',
    next: 'Check the address and port; a controller’s own page says “Digital Loggers”.',
  },
  NOT_FOUND: {
    title: 'Plugboard no longer knows that controller, group or thread.',
    next: 'It may have been removed meanwhile; the list now shows what exists.',
  },
  CANCELLED: {
    title: 'The action was cancelled before it finished.',
    next: 'Check the current state, then retry if it is still needed.',
  },
  INTERNAL: {
    title: 'Plugboard ran into a problem of its own.',
    next: 'Retry; if it keeps happening, restart Plugboard and report it with the log.',
  },
  STORE: {
    title: 'Plugboard could not use its lab store.',
    next: 'Do what the message says; the activity log and reservations wait until the store can be used.',
  },
  STANDBY: {
    title: 'This Plugboard service stands by: another one leads the lab.',
    next: 'Send the change to the service that leads (the message names it); this one answers reads only.',
  },
  RESERVED: {
    title: 'Someone else has reserved this.',
    next: 'Ask the holder to release it, wait until it ends, or break the reservation with a reason.',
  },
  CRITICAL_UNCONFIRMED: {
    title: 'A critical outlet was not switched without a confirmation.',
    next: 'Switch it again: Plugboard asks first, and goes ahead once you confirm.',
  },
};

/** Headline and next step for an error, using its detail where that helps (required firmware, fingerprint). */
export function adviceFor(error: ContractError): ErrorAdvice {
  const base = ADVICE[error.code] ?? ADVICE.INTERNAL;
  // No password was available, so none was sent; the controller did not refuse anything.
  if (error.detail?.passwordNeeded === true)
    return {
      title: 'Plugboard has no password it may use for this controller, so it sent nothing.',
      next: 'Enter the password where Plugboard asks for it, at the top of the window.',
    };
  // The controller refused a request as it stands (a 400 or 409, e.g. its last administrator): its own
  // answer says why, and there is no field to correct.
  if (error.code === 'BAD_INPUT' && typeof error.detail?.status === 'number')
    return {
      title: 'The controller refused it.',
      next: 'Do first what the controller’s answer above asks, then try again.',
    };
  // The settings could not be saved for want of disk space: not a bug, and nothing to report.
  if (error.detail?.diskFull === true)
    return {
      title: 'The disk is full, so Plugboard could not save.',
      next: 'Free some space on that disk, then try again.',
    };
  const required = error.detail?.requiredFirmware;
  if (error.code === 'UNSUPPORTED_FIRMWARE' && required) {
    return {
      ...base,
      next: `Update the firmware to ${String(required)} or newer from Digital Loggers’ support page, then retry.`,
    };
  }
  return base;
}

/**
 * What to do next: the place's own step (e.g. a form still being filled in), else what main said for this
 * error, else the general advice for its code.
 */
export function nextStep(error: ContractError, placeNext?: string): string {
  return placeNext ?? error.action ?? adviceFor(error).next;
}

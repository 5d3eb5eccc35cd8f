import { outletLabel } from './format';
import type { AppState } from './state/app-state.svelte';
import type { ConfirmQuestion } from './state/confirm-gate.svelte';
import type { LabsState } from './state/labs.svelte';

/** "outlet 3 (Router)"; just "outlet 3" while the controller's outlets have not been read. */
export function outletText(core: AppState | null, controllerId: string, outlet: number): string {
  const o = core?.states[controllerId]?.outlets.find((x) => x.number === outlet);
  return o ? outletLabel(o) : `outlet ${outlet}`;
}

/**
 * A controller or outlet of this computer or of a lab, for the Settings' lists: "Bench A, outlet 3
 * (Router)", "Lab North: Rack 7, outlet 2 (Server)". A lab's controller the window has not loaded (signed
 * out) is named by its id; one gone from its Core is said to be removed.
 */
export function describeRef(
  app: AppState | null,
  labs: LabsState | null,
  controllerId: string,
  outlet?: number,
  lab?: string,
): string {
  const core = lab === undefined ? app : (labs?.cores[lab] ?? null);
  const where = lab === undefined ? '' : `${labs?.lab(lab)?.name ?? 'a removed lab'}: `;
  const name =
    core?.summary(controllerId)?.name ?? (core ? 'a removed controller' : `controller ${controllerId}`);
  return `${where}${outlet === undefined ? name : `${name}, ${outletText(core, controllerId, outlet)}`}`;
}

/**
 * The tray's oldest request to confirm switching critical outlets, as the window asks it; a lab's
 * outlets are named in the lab's words and the question names the lab.
 */
export function trayQuestion(app: AppState | null, labs: LabsState | null = null): ConfirmQuestion | null {
  const request = app?.confirmQueue[0];
  if (!app || !request) return null;
  const core = request.lab === undefined ? app : (labs?.cores[request.lab] ?? null);
  const controller = core?.summary(request.controllerId)?.name ?? 'a controller';
  const where =
    request.lab === undefined ? '' : ` in ${labs?.lab(request.lab)?.name ?? 'a lab this computer left'}`;
  return {
    title: `The tray asks to ${request.action === 'off' ? 'switch off' : 'cycle'} critical outlets on ${controller}${where}`,
    body: request.reason,
    confirmLabel: request.action === 'off' ? 'Switch off' : 'Cycle',
    danger: true,
    critical: request.outlets.map((n) => outletText(core, request.controllerId, n)),
  };
}

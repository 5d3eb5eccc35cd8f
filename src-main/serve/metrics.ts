/**
 * Prometheus `/metrics`, in the text exposition format (version 0.0.4), written here rather than with
 * prom-client: the values are a snapshot of the Core's state, read when scraped, and a handful of
 * counters, so a registry of live metric objects would only copy what the Core already holds.
 *
 *   plugboard_controller_up{controller,id}                 1 online, 0 otherwise
 *   plugboard_outlet_physical_state{controller,id,outlet,name}   what the relay is doing (1 on)
 *   plugboard_outlet_state{...}                            the saved (persistent) state
 *   plugboard_outlet_transient_state{...}                  the temporary state
 *   plugboard_outlet_pending{...}                          1 while a change awaits the unit's confirmation
 *   plugboard_meter_value{controller,id,key,name,quantity,unit}  the meter's reading in V, A, kWh, W, °C, %
 *   plugboard_requests_total{listener,status}              requests answered by each listener
 *   plugboard_request_errors_total{listener,code}          requests refused or failed, by error code
 */
import type { ControllerState, ControllerSummary } from '../../src-preload/model';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The request counters every listener adds to (the pdudaemon listener too). */
export class RequestCounters {
  readonly #requests = new Map<string, number>();
  readonly #errors = new Map<string, number>();

  /** One request answered by `listener` with HTTP status `status` (the TCP protocol: 200 or 500). */
  request(listener: string, status: number): void {
    const key = labels({ listener, status: String(status) });
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1);
  }

  /** One request refused or failed, with its error code (AUTH, FORBIDDEN, NOT_FOUND, UNREACHABLE, ...). */
  error(listener: string, code: string): void {
    const key = labels({ listener, code });
    this.#errors.set(key, (this.#errors.get(key) ?? 0) + 1);
  }

  lines(): string[] {
    return [
      '# HELP plugboard_requests_total Requests answered, by listener and HTTP status.',
      '# TYPE plugboard_requests_total counter',
      ...[...this.#requests].map(([key, n]) => `plugboard_requests_total${key} ${n}`),
      '# HELP plugboard_request_errors_total Requests refused or failed, by listener and error code.',
      '# TYPE plugboard_request_errors_total counter',
      ...[...this.#errors].map(([key, n]) => `plugboard_request_errors_total${key} ${n}`),
    ];
  }
}

export function renderMetrics(
  controllers: readonly ControllerSummary[],
  states: readonly ControllerState[],
  counters: RequestCounters,
): string {
  const byId = new Map(states.map((s) => [s.id, s]));
  const up: string[] = [];
  const outlets: Record<'physical' | 'state' | 'transient' | 'pending', string[]> = {
    physical: [],
    state: [],
    transient: [],
    pending: [],
  };
  const meters: string[] = [];
  for (const controller of controllers) {
    const state = byId.get(controller.id);
    const who = { controller: controller.name, id: controller.id };
    up.push(`plugboard_controller_up${labels(who)} ${state?.status === 'online' ? 1 : 0}`);
    if (!state || state.status !== 'online') continue;
    for (const outlet of state.outlets) {
      const key = labels({ ...who, outlet: String(outlet.number), name: outlet.name });
      outlets.physical.push(`plugboard_outlet_physical_state${key} ${bit(outlet.physicalState)}`);
      outlets.state.push(`plugboard_outlet_state${key} ${bit(outlet.state)}`);
      outlets.transient.push(`plugboard_outlet_transient_state${key} ${bit(outlet.transientState)}`);
      outlets.pending.push(`plugboard_outlet_pending${key} ${bit(outlet.pending !== null)}`);
    }
    for (const meter of state.meters ?? []) {
      if (meter.value === null || !Number.isFinite(meter.value)) continue;
      const key = labels({
        ...who,
        key: meter.key,
        name: meter.name,
        quantity: meter.quantity,
        unit: meter.unit,
      });
      meters.push(`plugboard_meter_value${key} ${meter.value}`);
    }
  }
  return [
    ...family(
      'plugboard_controller_up',
      'gauge',
      'Whether Plugboard reaches the controller (1) or not (0).',
      up,
    ),
    ...family(
      'plugboard_outlet_physical_state',
      'gauge',
      "What the outlet's relay is doing: 1 on, 0 off.",
      outlets.physical,
    ),
    ...family(
      'plugboard_outlet_state',
      'gauge',
      "The outlet's saved (persistent) state: 1 on, 0 off.",
      outlets.state,
    ),
    ...family(
      'plugboard_outlet_transient_state',
      'gauge',
      "The outlet's temporary state: 1 on, 0 off.",
      outlets.transient,
    ),
    ...family(
      'plugboard_outlet_pending',
      'gauge',
      "A change awaits the controller's confirmation (1).",
      outlets.pending,
    ),
    ...family('plugboard_meter_value', 'gauge', "A meter's reading in V, A, kWh, W, °C or %.", meters),
    ...counters.lines(),
    '',
  ].join('\n');
}

function family(name: string, type: string, help: string, samples: string[]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples];
}

function bit(value: boolean): number {
  return value ? 1 : 0;
}

/** `{a="x",b="y"}` with the format's escapes: backslash, double quote and newline. */
function labels(values: Record<string, string>): string {
  const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return `{${Object.entries(values)
    .map(([k, v]) => `${k}="${escape(v)}"`)
    .join(',')}}`;
}

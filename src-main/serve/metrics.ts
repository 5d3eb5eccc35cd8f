/**
 * Prometheus `/metrics`, with prom-client on a registry of this service's own (never the global one):
 *
 *   plugboard_controller_up{controller,id}                 1 online, 0 otherwise
 *   plugboard_outlet_physical_state{controller,id,outlet,name}   what the relay is doing (1 on)
 *   plugboard_outlet_state{...}                            the saved (persistent) state
 *   plugboard_outlet_transient_state{...}                  the temporary state
 *   plugboard_outlet_pending{...}                          1 while a change awaits the unit's confirmation
 *   plugboard_meter_value{controller,id,key,name,quantity,unit}  the meter's reading in V, A, kWh, W, °C, %
 *   plugboard_requests_total{listener,status}              requests answered by each listener
 *   plugboard_request_errors_total{listener,code}          requests refused or failed, by error code
 *
 * The gauges are a snapshot of the Core's state, set afresh at each scrape (a removed controller or
 * outlet disappears); the counters count from the service's start.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { ControllerState, ControllerSummary } from '../../src-preload/model';

const OUTLET_LABELS = ['controller', 'id', 'outlet', 'name'] as const;

/** The service's metrics: the request counters every listener adds to (the pdudaemon one too), and the state gauges. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'plugboard_requests_total',
    help: 'Requests answered, by listener and HTTP status.',
    labelNames: ['listener', 'status'] as const,
    registers: [this.registry],
  });
  readonly #errors = new Counter({
    name: 'plugboard_request_errors_total',
    help: 'Requests refused or failed, by listener and error code.',
    labelNames: ['listener', 'code'] as const,
    registers: [this.registry],
  });
  readonly #up = this.#gauge(
    'plugboard_controller_up',
    'Whether Plugboard reaches the controller (1) or not (0).',
    ['controller', 'id'],
  );
  readonly #physical = this.#gauge(
    'plugboard_outlet_physical_state',
    "What the outlet's relay is doing: 1 on, 0 off.",
    OUTLET_LABELS,
  );
  readonly #state = this.#gauge(
    'plugboard_outlet_state',
    "The outlet's saved (persistent) state: 1 on, 0 off.",
    OUTLET_LABELS,
  );
  readonly #transient = this.#gauge(
    'plugboard_outlet_transient_state',
    "The outlet's temporary state: 1 on, 0 off.",
    OUTLET_LABELS,
  );
  readonly #pending = this.#gauge(
    'plugboard_outlet_pending',
    "A change awaits the controller's confirmation (1).",
    OUTLET_LABELS,
  );
  readonly #meters = this.#gauge('plugboard_meter_value', "A meter's reading in V, A, kWh, W, °C or %.", [
    'controller',
    'id',
    'key',
    'name',
    'quantity',
    'unit',
  ]);

  /** One request answered by `listener` with HTTP status `status` (the TCP protocol: 200 or 500). */
  request(listener: string, status: number): void {
    this.#requests.inc({ listener, status: String(status) });
  }

  /** One request refused or failed, with its error code (AUTH_FAILED, FORBIDDEN, NOT_FOUND, UNREACHABLE, ...). */
  error(listener: string, code: string): void {
    this.#errors.inc({ listener, code });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text for the Core's state now. */
  async render(
    controllers: readonly ControllerSummary[],
    states: readonly ControllerState[],
  ): Promise<string> {
    for (const gauge of [this.#up, this.#physical, this.#state, this.#transient, this.#pending, this.#meters])
      gauge.reset();
    const byId = new Map(states.map((s) => [s.id, s]));
    for (const controller of controllers) {
      const state = byId.get(controller.id);
      const who = { controller: controller.name, id: controller.id };
      this.#up.set(who, state?.status === 'online' ? 1 : 0);
      if (!state || state.status !== 'online') continue;
      for (const outlet of state.outlets) {
        const labels = { ...who, outlet: String(outlet.number), name: outlet.name };
        this.#physical.set(labels, bit(outlet.physicalState));
        this.#state.set(labels, bit(outlet.state));
        this.#transient.set(labels, bit(outlet.transientState));
        this.#pending.set(labels, bit(outlet.pending !== null));
      }
      for (const meter of state.meters ?? []) {
        if (meter.value === null || !Number.isFinite(meter.value)) continue;
        this.#meters.set(
          { ...who, key: meter.key, name: meter.name, quantity: meter.quantity, unit: meter.unit },
          meter.value,
        );
      }
    }
    return this.registry.metrics();
  }

  #gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}

function bit(value: boolean): number {
  return value ? 1 : 0;
}

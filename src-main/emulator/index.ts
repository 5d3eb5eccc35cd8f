import { Authenticator } from './auth';
import { Controller } from './controller';
import { createDevice, type Device } from './device';
import { Faults } from './faults';
import { createHandler } from './handler';
import { Lifecycle } from './lifecycle';
import { type EmulatorOptions, resolveOptions } from './options';
import { startUnitMqtt, type UnitMqtt } from './mqtt';
import { HttpFront } from './server';
import { StatsRecorder } from './stats';
import { generateCertificate } from './tls';
import { rootNode } from './tree-root';

export type {
  ConnectionClose,
  CycleTransient,
  DepthRefs,
  EmulatorOptions,
  MatrixErrors,
  MeterMap,
  TokenScopes,
  UngrantedStatus,
} from './options';
export { REAL_UNIT } from './options';
export type { Behaviours } from './controller';
export type { AutopingItemSnapshot, RealUnitDevice } from './device-real';
export type { AutopingSettings, AutopingStatus } from './autoping';
export type { ObjectModelMeter } from './meters-object-model';
export { OBJECT_MODEL_METERS } from './meters-object-model';
export type { ConfigPatch, Device, DeviceUserInput, OutletPatch, OutletSnapshot } from './device';
export type { FaultKind, FaultPlan } from './faults';
export type { MeterEntry, MeterKey } from './meters';
export { METER_KEYS, ZERO_CURRENT } from './meters';
export type { RequestLogEntry, RequestStats } from './stats';
export { outletTopic, type UnitMqtt } from './mqtt';

export interface RunningEmulator {
  /** Base address, e.g. `http://127.0.0.1:PORT` (no `/restapi/`). */
  url: string;
  device: Device;
  /** The unit's own MQTT client (options.mqtt), or null. */
  mqtt: UnitMqtt | null;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts one software controller: a real HTTP(S) server on `host:port`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const controller = new Controller(resolved);
  const certificate = resolved.tls
    ? await generateCertificate(controller.config.hostname, resolved.host)
    : null;
  const stats = new StatsRecorder();
  const faults = new Faults();
  const auth = new Authenticator(controller, {
    qop: resolved.qop,
    nonceLifetimeMs: resolved.nonceLifetime * 1000,
  });
  const latency = { value: resolved.latency };
  const slowOutletList = { value: resolved.slowOutletListMs };
  const slowOutlets = { value: resolved.slowOutletsMs };
  // The reboot call needs the lifecycle, which needs the server, which needs the handler: close the loop late.
  let lifecycle: Lifecycle | null = null;
  const root = rootNode(
    controller,
    () => void lifecycle?.reboot().catch((error: unknown) => console.error('emulator: reboot failed', error)),
  );
  let front: HttpFront | null = null;
  const handler = createHandler({
    controller,
    auth,
    faults,
    stats,
    root,
    latency: () => latency.value,
    slowOutletList: () => slowOutletList.value,
    slowOutlets: () => slowOutlets.value,
    hang: (res) => front?.hang(res),
  });
  front = new HttpFront(handler, resolved.host, resolved.port, certificate, (status) =>
    stats.begin('?', '?')(status),
  );
  front.resumption = resolved.tlsResumption;
  lifecycle = new Lifecycle(front, controller, auth, resolved, certificate);
  try {
    await lifecycle.start();
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
  const running = front;
  const device = createDevice({
    controller,
    auth,
    faults,
    stats,
    lifecycle,
    latency,
    slowOutletList,
    slowOutlets,
    releaseHanging: () => running.releaseHanging(),
    front: running,
  });
  const closer = lifecycle;
  const unitMqtt = resolved.mqtt ? startUnitMqtt(controller, resolved.mqtt) : null;
  return {
    url: `${resolved.tls ? 'https' : 'http'}://${urlHost(resolved.host)}:${running.port}`,
    device,
    mqtt: unitMqtt,
    close: async () => {
      await unitMqtt?.close();
      await closer.close();
    },
  };
}

import type { AppInfo, ControllerSummary, EventSink, Handlers } from '../../src-preload/contract';
import { PlugboardError } from '../dli/errors';
import type { KeyValueStore } from './ports';

export interface CoreOptions {
  shell: AppInfo['shell'];
  version: string;
  store: KeyValueStore;
}

/** The app: implements every call of the contract and pushes events. Knows nothing of its shell. */
export interface Core {
  handlers: Handlers;
  /** Subscribe to events; returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void;
  dispose(): Promise<void>;
}

export function createCore(options: CoreOptions): Core {
  const sinks = new Set<EventSink>();
  const info: AppInfo = { name: 'Plugboard', version: options.version, shell: options.shell, platform: process.platform };
  const listControllers = (): ControllerSummary[] => options.store.get<ControllerSummary[]>('controllers', []);
  const notBuilt = (): Promise<never> => Promise.reject(new PlugboardError('INTERNAL', 'This part of Plugboard is not built yet.'));

  const handlers: Handlers = {
    'app/info': async () => info,
    'app/snapshot': async () => ({
      info,
      controllers: listControllers(),
      states: [],
      groups: [],
      settings: {
        pollIntervalMs: 3000,
        temperatureUnit: 'C',
        theme: 'system',
        notifications: { offline: true, outsideChanges: true, meterThresholds: true },
        meterThresholds: [],
        trayFavourites: [],
      },
    }),
    'controllers/list': async () => listControllers(),
    'controllers/add': notBuilt,
    'controllers/update': notBuilt,
    'controllers/remove': notBuilt,
    'controllers/reorder': notBuilt,
    'controllers/refresh': notBuilt,
    'controllers/trustCertificate': notBuilt,
    'demo/start': notBuilt,
    'demo/remove': notBuilt,
    'outlets/set': notBuilt,
    'outlets/cycle': notBuilt,
    'outlets/switch': notBuilt,
    'outlets/rename': notBuilt,
    'scripts/start': notBuilt,
    'scripts/stop': notBuilt,
    'users/create': notBuilt,
    'users/delete': notBuilt,
    'system/setSsh': notBuilt,
    'system/reboot': notBuilt,
    'system/tree': notBuilt,
    'meters/history': notBuilt,
    'meters/exportCsv': notBuilt,
    'groups/list': async () => [],
    'groups/save': notBuilt,
    'groups/remove': notBuilt,
    'groups/run': notBuilt,
    'activity/list': async () => [],
    'settings/get': notBuilt,
    'settings/set': notBuilt,
    'discovery/start': notBuilt,
    'discovery/stop': notBuilt,
  };

  return {
    handlers,
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    async dispose() {
      sinks.clear();
    },
  };
}

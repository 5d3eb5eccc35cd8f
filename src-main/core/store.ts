/**
 * The config file without a Core: its key-value store (config.json under its inter-process lock) and the
 * registry of saved controllers over it. For the doors that read or prepare it directly
 * (the desktop app's electron-store, the command line's direct requests to a saved controller, tests);
 * everything else goes through the Core (index.ts, saved-core.ts).
 */
export { MemoryStore, type KeyValueStore } from './kernel/ports';
export { CONFIG_FILE_MODE, confKeyValueStore, openConfStore, type ConfLike } from './saved/conf-store';
export { ControllerRegistry } from './saved/registry';
export { SETTINGS_KEY } from './saved/settings';
export { labStoreControllers } from './flows/lab-config-move';

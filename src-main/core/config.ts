/**
 * The config folder's place, the saved controllers as a direct request reads them (the file, without its
 * lock or store) and where a saved secret may go, for the doors that need them without a Core: every
 * `plugboard` command finds the folder as it starts, and one given --url first asks whether the address
 * is a saved controller's. Nothing here loads the config store or the rest of the Core, so such a command
 * stays light. The store itself is store.ts.
 */
export type { ControllerRegistry } from './saved/registry';
export { plugboardConfigDir } from './saved/config-dir';
export { CONTROLLERS_KEY, readControllers } from './saved/registry-records';
export { boundPlaceChanges, openSecret } from './saved/registry-envelope';
export { checkSecretPlace, type SecretPlace } from './saved/secret-binding';

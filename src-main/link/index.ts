export { connectCore, findRunningCore, type CoreLink, type ConnectOptions, type LinkActor } from './client';
export { coreSocketPath, LINK_DOORS } from './wire';
export { takeCoreLock, CORE_LOCK_FILE, type CoreLock } from './core-lock';
export { connectRemoteCore, type RemoteOptions } from './remote';

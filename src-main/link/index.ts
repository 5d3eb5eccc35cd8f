export { connectCore, findRunningCore, type CoreLink, type ConnectOptions, type LinkActor } from './client';
export { coreSocketPath, LINK_DOORS } from './wire';
export { takeCoreLock, CoreLockHeld, CORE_LOCK_FILE, type CoreLock } from './core-lock';
export { describeHolder, type LockHolder } from './lock-holder';
export { attachOrLock, attachOrNone, type CoreSlot } from './core-slot';
export { connectRemoteCore, type RemoteOptions } from './remote';

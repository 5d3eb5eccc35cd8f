export { createDesk, type Desk, type DeskBase, type DeskOptions } from './desk';
export type { ProviderSignIn } from './desk-labs';
export type { LastKnown } from './last-known';
export { LABS_KEY } from './lab-records';

export { controllerAccount, keepingOf, type SecretKeeping, type SecretStore } from './secret-store';
export { KeytarSecretStore, type KeytarSecretStoreOptions } from './keytar-secret-store';
export { MemorySecretStore } from './memory-secret-store';
export { SystemdCredentialStore, credentialName } from './systemd-credentials';

/**
 * `plugboard serve` assembled: the Core lock, the Core over the saved controllers (config folder, and
 * secrets from systemd credentials or the keychain), its owner-only socket, the listeners. `close()`
 * undoes it in order: stop accepting, let requests under way finish (bounded), dispose the Core (which
 * finishes what a command in progress must finish, like a reboot's off-delay), release the lock.
 */
import { randomUUID } from 'node:crypto';
import { coreSocketPath } from '../link/wire';
import { openSavedCore, postgresLease, keychainOrMemory, openLabRecords } from '../core/saved-core';
import { LeaseLeadership, systemClock, type Core, type Leadership } from '../core/index';
import { prepareConfigFolder } from '../shared/config-folder';
import { controllerAccount, SystemdCredentialStore, credentialName, type SecretStore } from '../secrets';
import type { Logger } from '../shared/logging';
import type { ControllerSummary } from '../../src-preload/model';
import { listenCoreSocket, type CoreSocket } from './core-socket';
import { takeCoreLock } from '../link/core-lock';
import type { RunningListener, ServiceRole } from './listener';
import { LISTENERS } from './listeners';
import { ServiceMetrics } from './metrics';
import { DEFAULT_SHUTDOWN_GRACE_S, type ServeConfig } from './options';
import { loadTls } from './tls';
import { resolveTokenScopes, tokenLines, type Token } from './tokens';
import { pdudaemonLines, resolveAllowScopes } from './allowed-clients';
import type { ClientNetworks } from './network';
import { oidcLines, startOidc, type OidcSignIn } from './oidc-service';

/** How long requests under way may take to finish once a shutdown starts, without --shutdown-grace. */
export const SHUTDOWN_GRACE_MS = DEFAULT_SHUTDOWN_GRACE_S * 1000;

export interface RunningService {
  core: Core;
  /** The start-up lines: where each listener is. */
  lines: string[];
  close(): Promise<void>;
}

export interface ServiceOptions {
  version: string;
  log: Logger;
  env: NodeJS.ProcessEnv;
  /** The lock was lost (another process took the config folder): the service must stop. */
  onLockLost: (error: Error) => void;
}

export async function startService(config: ServeConfig, options: ServiceOptions): Promise<RunningService> {
  const { log } = options;
  const lock = await takeCoreLock(config.configDir, options.onLockLost, { shell: 'serve' });
  let core: Core | null = null;
  let leadership: LeaseLeadership | null = null;
  let socket: CoreSocket | null = null;
  const listeners: RunningListener[] = [];
  let tokens: Token[];
  let saved: ControllerSummary[];
  let allow: ClientNetworks | null;
  let bus: { lines: string[]; close(): Promise<void> } | null = null;
  let oidc: OidcSignIn | null = null;
  const close = async (): Promise<void> => {
    // One grace period for all of them: each destroys what is still open when it ends.
    const grace = config.shutdownGraceMs;
    // When the grace ends, what the Core promised to do after a wait (a reboot's switch back on) is done
    // at once: a client's long delay cannot hold the stop past its grace period.
    const hurry = setTimeout(() => core?.hurry(), grace);
    // The bus says `offline` (retained) before it leaves, so subscribers know at once.
    await Promise.allSettled([...listeners.map((l) => l.close(grace)), socket?.close(grace), bus?.close()]);
    await core?.dispose().catch((error: unknown) => log('The Core did not stop cleanly', error));
    clearTimeout(hurry);
    await lock.release();
  };
  try {
    const secrets = await serviceSecrets(options.env, log);
    prepareConfigFolder(config.configDir);
    const records = await openLabRecords(config.configDir, options.version, log, Date.now(), options.env);
    // Several services on one PostgreSQL store: the one holding the lease leads (SQLite: this one alone).
    leadership =
      records.store.engine === 'postgres'
        ? new LeaseLeadership({
            lease: postgresLease(records.store.db, {
              name: config.name,
              address: config.advertise,
              token: randomUUID(),
            }),
            self: { name: config.name, address: config.advertise },
            where: records.store.where,
            clock: systemClock,
            log,
          })
        : null;
    core = await openSavedCore({
      shell: 'serve',
      version: options.version,
      log,
      configDir: config.configDir,
      env: options.env,
      secrets,
      records,
      leadership,
      writtenBy: config.name,
      // Metrics and the status API want meters too: the service polls as if someone were looking.
      visible: true,
    });
    await reportMissingSecrets(core, secrets, options.env, log);
    // The tokens' scopes name controllers once, now, and keep them by id (grants.ts).
    saved = await core.handlers['controllers/list']({});
    const resolved = resolveTokenScopes(config.tokens, saved, config.tokenSource ?? 'tokens');
    if (typeof resolved === 'string') throw new Error(resolved);
    tokens = resolved;
    const named = config.allow ? resolveAllowScopes(config.allow, saved) : null;
    if (typeof named === 'string') throw new Error(named);
    allow = named;
    if (config.oidc) oidc = startOidc(config.oidc, saved, config.advertise);
    socket = await listenCoreSocket(core, coreSocketPath(config.configDir), log, {
      holdsLock: () => lock.held,
    });
    const metrics = new ServiceMetrics();
    const hosts = [...new Set(config.listeners.map((l) => l.host).concat(config.hostNames))];
    const tls = await loadTls(config.tls, config.configDir, hosts);
    for (const spec of config.listeners) {
      const factory = LISTENERS[spec.name];
      if (!factory) {
        log(`${spec.name}: not part of this build; skipped.`);
        continue;
      }
      listeners.push(
        await factory({
          core,
          spec,
          allow,
          tokens,
          hostNames: config.hostNames,
          tls: spec.name === 'api' ? tls : null,
          metrics,
          log,
          role: () => roleOf(config.name, config.advertise, leadership),
          webWindow: spec.name === 'api' && config.webWindow,
          oidc: spec.name === 'api' ? oidc : null,
        }),
      );
    }
    // The first claim of the lease, and the takeover work when it leads, before the start-up lines.
    await leadership?.start();
    // The lab on MQTT (loaded only when asked for): only the leader is on the broker (mqtt/bus.ts).
    if (config.mqtt)
      bus = await (
        await import('./mqtt/wiring')
      ).startMqtt({
        core,
        config: config.mqtt,
        saved,
        serviceName: config.name,
        version: options.version,
        leadership,
        log,
      });
  } catch (error) {
    await close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    core,
    lines: [
      `Core: ${config.configDir} (socket ${coreSocketPath(config.configDir)})`,
      ...(config.tokenSource ? tokenLines(tokens, config.tokenSource, saved) : []),
      ...listeners.flatMap((l) => l.lines),
      ...(bus?.lines ?? []),
      ...(config.oidc && oidc ? oidcLines(config.oidc, oidc, saved) : []),
      ...whoMayReach(config, allow, saved),
      ...(await firstAdminLines(core, config)),
      ...(leadership ? [leadLine(config.name, leadership)] : []),
    ],
    close: () => (closing ??= close()),
  };
}

/** Whether this service leads, and who does: what `GET /api/v1/status` says. */
function roleOf(name: string, address: string | null, leadership: Leadership | null): ServiceRole {
  if (!leadership) return { service: name, role: 'leader', leader: name, leaderAddress: address };
  const leader = leadership.leader();
  return {
    service: name,
    role: leadership.leads() ? 'leader' : 'standby',
    leader: leader?.name ?? null,
    leaderAddress: leader?.address ?? null,
  };
}

/** The start-up line: "lab-a leads the lab" or "standby: lab-a leads the lab". */
function leadLine(name: string, leadership: Leadership): string {
  if (leadership.leads()) return `lab: ${name} leads the lab.`;
  const leader = leadership.leader();
  return leader
    ? `lab: standby: ${leader.name} leads the lab${leader.address ? ` (${leader.address})` : ''}.`
    : `lab: standby: no service leads the lab yet.`;
}

/**
 * Systemd credentials first when the service has them ($CREDENTIALS_DIRECTORY), then the keychain
 * where one answers, else memory for this run (saved-core.ts says so in the log).
 */
async function serviceSecrets(env: NodeJS.ProcessEnv, log: Logger): Promise<SecretStore> {
  const dir = env.CREDENTIALS_DIRECTORY;
  const keychain = await keychainOrMemory(
    dir
      ? (message) => log(`${message} Controllers with a systemd credential (in ${dir}) are not affected.`)
      : log,
  );
  return dir ? new SystemdCredentialStore(dir, keychain) : keychain;
}

/** Name the credential each saved controller lacks, so the operator knows what to add to the unit. */
async function reportMissingSecrets(
  core: Core,
  secrets: SecretStore,
  env: NodeJS.ProcessEnv,
  log: Logger,
): Promise<void> {
  const controllers = await core.handlers['controllers/list']({});
  for (const controller of controllers.filter((c) => c.hasSecret && !c.demo)) {
    const account = controllerAccount(controller.id);
    if ((await secrets.get(account).catch(() => null)) !== null) continue;
    log(
      `${controller.name}: its password or token is not available here. Give it as the systemd credential ${credentialName(account)}${env.CREDENTIALS_DIRECTORY ? '' : ' (LoadCredentialEncrypted=, see docs/service.md)'} or in the keychain.`,
    );
  }
}

/**
 * Who can reach the listeners without a secret, said at every start so an operator is never surprised:
 * pdudaemon's protocol has no login, and the API without tokens answers reads to anyone who may connect.
 */
function whoMayReach(
  config: ServeConfig,
  allow: ClientNetworks | null,
  saved: readonly ControllerSummary[],
): string[] {
  const names = new Set(config.listeners.map((l) => l.name));
  const reach = `every account on this machine${config.allow ? ` and the networks ${config.allow.given.join(', ')}` : ''}`;
  const lines: string[] = [];
  if (names.has('pdudaemon')) lines.push(...pdudaemonLines(allow, saved));
  if (names.has('api') && config.tokens.length === 0)
    lines.push(
      `api: no tokens (--token-file or the credential plugboard.tokens): ${reach} may read the controllers' names, addresses and states and /metrics; only a signed-in account may switch through it.`,
    );
  return lines;
}

/**
 * The first administrator: while no account may administer, the start-up says how to add one. It is
 * added on this machine by the owner of the config folder (who acts as an administrator through the
 * Core's owner-only socket), never over the network, so nobody can claim a new service first.
 */
async function firstAdminLines(core: Core, config: ServeConfig): Promise<string[]> {
  if (!config.listeners.some((l) => l.name === 'api') || !core.accounts) return [];
  if (await core.accounts.hasAdmin().catch(() => true)) return [];
  return [
    'accounts: no administrator yet; add the first one on this machine, as the owner of the config folder: plugboard accounts add NAME --role admin --password-stdin',
  ];
}

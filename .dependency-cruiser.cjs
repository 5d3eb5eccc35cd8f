/**
 * The layers of the main process, checked by `npm run lint:layers` (part of `npm test`). README.md's
 * "Architecture" section has the same table in words. From the bottom up, each layer may import only
 * itself and the layers listed for it (and npm packages and Node's built-ins):
 *
 *   src-main/shared     —                         errors, logging, credentials, addresses, CSP, text, CSV, version
 *   src-main/dli        shared                    the controller's REST client
 *   src-main/secrets    shared                    the keychain
 *   src-main/discovery  shared, dli               finding controllers on the network
 *   src-main/emulator   shared                    the software controller (knows nothing of Plugboard)
 *   src-main/link       shared                    a running Core's socket (client) and the Core lock
 *   src-main/core       all of the above but link the app: rooms in a strict order behind a public surface
 *   src-main/desk       core, link and below      a person's desk: this computer's Core and the labs it attaches to
 *   src-main/shell, web, cli   core, link and below, never each other: the doors into the Core (shell and
 *                      web also serve the Core's socket, src-main/serve/core-socket.ts, when they run the Core;
 *                      shell and web serve a desk)
 *   src-main/serve      core, link, web and below `plugboard serve`: a door that mounts the web window
 *   src-main/bin        cli, serve                the `plugboard` command: picks the door to load
 *   src-main/web/page   the web shell's page script, bundled for the browser: socket terms and window-api only
 *
 * `src-preload/contract.ts`, `model.ts` and `words.ts` are the contract shared by both processes: every
 * layer may import them, and they import nothing of Plugboard's but each other (and contract.ts its calls
 * by domain, src-preload/contract/, which nothing else imports). Only the Electron shell
 * and the preload import `electron`. What the renderer may import is checked by eslint.config.js; here it
 * is cruised for cycles only.
 *
 * Type-only imports count (tsPreCompilationDeps): a cycle through `import type` still ties files together.
 */

/** Everything in src-main outside the given layers. */
const mainExcept = (...layers) => `^src-main/(?!(${layers.join('|')})/)`;

/** One rule per layer: it may not import from src-main outside `allowed` (its own folder included). */
const layer = (name, allowed, why, files = []) => ({
  name: `layer-${name}`,
  comment: why,
  severity: 'error',
  from: { path: `^src-main/${name}/` },
  to: { path: mainExcept(name, ...allowed), ...(files.length ? { pathNot: `^(${files.join('|')})$` } : {}) },
});

/**
 * The Core's owner-only socket: whichever process holds the Core lock serves it (the service, the
 * desktop app, the web shell), so the others on the same config folder use that Core.
 */
const coreSocket = 'src-main/serve/core-socket\\.ts';

const doors = ['shared', 'dli', 'secrets', 'discovery', 'emulator', 'core', 'link'];

/**
 * The Core's rooms, from the bottom up, each one concern: a room may import itself and the rooms below
 * it, never one above and never the Core's public files at its top (index.ts and the others of
 * `coreSurface`), which assemble the rooms. Where a lower room needs something of a higher one, the
 * higher one passes it in (a port or a callback), as createCore does.
 */
const rooms = [
  ['kernel', 'the clock, the event hub, the storage port, file turns: what every room uses'],
  [
    'database',
    'the lab store: one schema on SQLite or PostgreSQL through Kysely, its place, its versioned migrations, the lease that says which service leads',
  ],
  [
    'accounts',
    'people who sign in to the lab service: accounts, password hashes, sessions, slowing and locking failed sign-ins',
  ],
  ['saved', 'what the config folder keeps: controllers, groups, settings, the file and its lock, secrets'],
  ['activity', 'the activity log: its file, batches, refusals, ids, and its CSV and JSON-lines export'],
  ['meters', "readings kept over time, meter ids that move, limits and their breaches, the meters' CSV"],
  ['session', "a saved controller's session (client, polls, pending changes, state) and all sessions"],
  ['fleet', "the fleet inventory (identity, firmware, drift, last known values), scripts' attribution"],
  ['reservations', 'who holds which outlets, groups and controllers for how long, checked before a switch'],
  ['actions', 'what one controller is asked to do: outlets, delayed cycles, scripts, users, system'],
  ['sequences', 'groups run at once across controllers, and sequences run step by step, kept while they run'],
  ['tray', "the tray's menu and icon, built from the state alone (the Electron shell draws them)"],
  ['flows', 'changes across rooms: adding, updating, removing controllers, passwords, the demo; the context'],
  ['handlers', "the contract's calls, one file per domain, the role check before each, and the dispatcher"],
];

/**
 * The Core's public surface, its only files outside the rooms: the rest of Plugboard imports the Core
 * through these and nothing else, so a room can change inside without a door noticing.
 *
 *   index.ts       the Core (createCore) and what the doors use with it: the dispatcher, the ports, the
 *                  names of the files it keeps, the tray's menu, the exports the command line prints
 *   saved-core.ts  the machine's Core: the config folder, its lock and the OS keychain (serve, web, CLI)
 *   config.ts      the config folder's place, the saved controllers as a direct request reads them, where
 *                  a saved secret may go: what a `plugboard` command needs as it starts, nothing heavier
 *   store.ts       the config file without a Core: its store and the records in it, for the doors that
 *                  read it directly (the desktop app's electron-store, a direct request, tests)
 */
const coreSurface = ['index', 'saved-core', 'config', 'store'];

/** One rule per room: it may import only the rooms below it (and itself) of the Core. */
const roomRules = rooms.map(([name, holds], index) => ({
  name: `core-room-${name}`,
  comment: `src-main/core/${name}/ holds ${holds}. It may import only ${
    index === 0
      ? 'itself'
      : `itself and the rooms below it (${rooms
          .slice(0, index)
          .map(([below]) => below)
          .join(', ')})`
  } of the Core.`,
  severity: 'error',
  from: { path: `^src-main/core/${name}/` },
  to: {
    path: '^src-main/core/',
    pathNot: `^src-main/core/(${rooms
      .slice(0, index + 1)
      .map(([below]) => below)
      .join('|')})/`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only ones included: split the shared part into a lower file.',
      severity: 'error',
      from: {},
      // A Svelte component may render itself (JsonTree draws a tree of JsonTrees): a cycle of one file.
      to: { circular: true, via: { pathNot: '^src-renderer/lib/components/JsonTree\\.svelte$' } },
    },
    layer('shared', [], 'src-main/shared is the bottom layer: it imports only the contract (src-preload).'),
    layer('dli', ['shared'], 'The REST client knows only shared things, never the Core or a shell.'),
    layer('secrets', ['shared'], 'The keychain knows only shared things.'),
    layer(
      'discovery',
      ['shared', 'dli'],
      'Discovery may use the REST client and shared things, nothing above.',
    ),
    layer(
      'emulator',
      ['shared'],
      'The emulator stands in for hardware: it shares no code with the client it tests.',
    ),
    layer(
      'core',
      ['shared', 'dli', 'secrets', 'discovery', 'emulator'],
      'The Core knows nothing of its shells.',
    ),
    ...roomRules,
    {
      name: 'core-surface',
      comment: `Outside src-main/core, the Core is imported only through its public files (${coreSurface.map((file) => `${file}.ts`).join(', ')}): a room's file is the Core's own business.`,
      severity: 'error',
      from: { path: '^src-', pathNot: '^src-main/core/' },
      to: { path: '^src-main/core/', pathNot: `^src-main/core/(${coreSurface.join('|')})\\.ts$` },
    },
    layer(
      'desk',
      ['shared', 'secrets', 'core', 'link'],
      "A desk wraps this computer's Core and reaches labs through the remote link: core, link, the keychain and shared things, never a door.",
    ),
    layer(
      'shell',
      [...doors, 'desk'],
      "The Electron shell uses the Core and below, never the other shells (it serves the Core's socket).",
      [coreSocket],
    ),
    layer(
      'web',
      [...doors, 'desk'],
      "The web shell uses the Core and below, never the other shells (it serves the Core's socket).",
      [coreSocket],
    ),
    layer('cli', doors, 'The CLI uses the Core and below, never the other shells.'),
    layer(
      'link',
      ['shared'],
      "The Core's socket client: shared things and the contract only, no door (the app and the CLI import it).",
    ),
    layer(
      'serve',
      [...doors, 'web'],
      '`plugboard serve` uses the Core and below, and mounts the web window (src-main/web); never the CLI or the Electron shell.',
    ),
    layer(
      'bin',
      ['cli', 'serve'],
      'The `plugboard` command only chooses a door: the CLI or `plugboard serve`.',
    ),
    {
      name: 'contract-is-self-contained',
      comment:
        "src-preload/contract.ts and model.ts are imported by both processes: they import only each other, the contract's parts (and valibot), never main's or the renderer's code.",
      severity: 'error',
      from: { path: '^src-preload/((contract|model|words)\\.ts$|contract/)' },
      to: { path: '^src-', pathNot: '^src-preload/((contract|model|words)\\.ts$|contract/)' },
    },
    {
      name: 'contract-parts-through-the-contract',
      comment:
        "src-preload/contract/ holds the contract's calls by domain: contract.ts assembles them, and everything else imports contract.ts.",
      severity: 'error',
      from: { path: '^src-', pathNot: '^src-preload/(contract\\.ts$|contract/)' },
      to: { path: '^src-preload/contract/' },
    },
    {
      name: 'only-the-contract-from-preload',
      comment:
        "Of src-preload, main may import only the contract and the model; index.ts is the window's preload. The web shell's page script (src-main/web/page/) also builds window.plugboard with window-api.ts.",
      severity: 'error',
      from: { path: '^src-main/', pathNot: '^src-main/web/page/' },
      to: { path: '^src-preload/', pathNot: '^src-preload/(contract|model|words)\\.ts$' },
    },
    {
      name: 'web-page-runs-in-the-browser',
      comment:
        "src-main/web/page/ is bundled into the browser tab (the web shell's window.plugboard): it imports only itself, the socket's wire terms and src-preload's contract and window-api.ts, no Node or npm module.",
      severity: 'error',
      from: { path: '^src-main/web/page/' },
      to: {
        pathNot:
          '^(src-main/web/page/|src-main/web/socket-protocol\\.ts$|src-preload/(contract|model|window-api)\\.ts$)',
      },
    },
    {
      name: 'web-page-only-in-the-browser',
      comment:
        'The page script runs in the browser on load: the web shell serves its build, never imports it.',
      severity: 'error',
      from: { path: '^src-', pathNot: '^src-main/web/page/' },
      to: { path: '^src-main/web/page/' },
    },
    {
      name: 'preload-imports-no-main',
      comment:
        "The preload runs in the page's sandbox: it imports the contract and electron, nothing of main.",
      severity: 'error',
      from: { path: '^src-preload/' },
      to: { path: '^src-(main|renderer)/' },
    },
    {
      name: 'electron-only-in-shell',
      comment:
        'Only src-main/shell and the preload import electron: the Core, the CLI and the web shell run without it.',
      severity: 'error',
      from: { path: '^src-', pathNot: '^(src-main/shell/|src-preload/index\\.ts$)' },
      to: { path: '^(node_modules/)?electron(/|$)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing (a mistyped path, a package not installed).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'svelte', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

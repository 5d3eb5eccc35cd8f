/**
 * A stand-in Electron distribution folder for `electron-builder --dir` (`electronDist`), where Electron's
 * own download is unreachable. electron-builder copies the folder, renames `electron` to the app's
 * executable and flips the fuses in it, so the stand-in `electron` carries a fuse wire as Electron's
 * binary does: @electron/fuses' sentinel, the wire version (1), its length (8), one byte per fuse
 * ('0' off, '1' on; these are Electron 41's defaults). Run, it prints what it was asked to run.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** FuseV1Options order: RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable,
 * EnableNodeCliInspectArguments, EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar,
 * LoadBrowserProcessSpecificV8Snapshot, GrantFileProtocolExtraPrivileges. */
export const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;
const ELECTRON_DEFAULTS = '10110001';

export async function makeStandInElectronDist(dir: string): Promise<string> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(SENTINEL),
    Buffer.from([1, FUSE_NAMES.length]),
    Buffer.from(ELECTRON_DEFAULTS),
  ]);
  const script = Buffer.concat([
    Buffer.from('#!/bin/sh\n# Stand-in for the Electron binary (test/packaging). Fuse wire: '),
    wire,
    Buffer.from('\nprintf \'%s\\n\' "ELECTRON_RUN_AS_NODE=$ELECTRON_RUN_AS_NODE" "$@"\n'),
  ]);
  const electron = join(dir, 'electron');
  await writeFile(electron, script);
  await chmod(electron, 0o755);
  await writeFile(join(dir, 'chrome-sandbox'), '');
  await writeFile(join(dir, 'LICENSE'), 'Stand-in for the Electron distribution; not Electron.\n');
  await writeFile(join(dir, 'version'), '41.7.1');
  return dir;
}

/** The fuses as flipped in a (stand-in) Electron binary: name → on/off. */
export async function readFuses(binary: string): Promise<Record<string, boolean>> {
  const bytes = await readFile(binary);
  const at = bytes.indexOf(SENTINEL);
  if (at < 0) throw new Error(`No fuse wire in ${binary}.`);
  const length = bytes[at + SENTINEL.length + 1]!;
  const fuses: Record<string, boolean> = {};
  for (let i = 0; i < length; i++) {
    fuses[FUSE_NAMES[i] ?? `fuse${i}`] = bytes[at + SENTINEL.length + 2 + i] === '1'.charCodeAt(0);
  }
  return fuses;
}

/**
 * Plugboard's own folder and version, found from the code's file. The same code runs from the source
 * tree, bundled (out/main, out/main/chunks) and packaged (resources/app.asar/out/main/…), so the folder
 * is the nearest one above whose package.json is Plugboard's, rather than a fixed number of `..`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The app's root folder: the nearest folder at or above `from` whose package.json is Plugboard's. */
export function findAppRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readManifest(manifest)?.name === 'plugboard') return dir;
    if (dirname(dir) === dir)
      throw new Error(`Plugboard's package.json was not found in ${from} or any folder above it.`);
  }
}

/**
 * Plugboard's version as its package.json says (what `plugboard --version` prints and the lab store
 * records as the version that migrated it); 0.0.0 when that file cannot be read.
 */
export function appVersion(): string {
  try {
    const version = readManifest(join(findAppRoot(import.meta.dirname), 'package.json'))?.version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function readManifest(manifest: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

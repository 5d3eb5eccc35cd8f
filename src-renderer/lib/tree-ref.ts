/**
 * Where a `$ref` leaf of the API tree points, below /restapi/. Resolved like a link, against the path
 * it was read from: real units write refs relative to the resource read (`hostname/` in a read of
 * `config/` is `config/hostname/`), Plugboard's client and the emulator hand them on absolute
 * (`/restapi/config/hostname/`). null when it is not a ref, or points outside /restapi/.
 */
export function treeRef(value: unknown, base: string): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const target = (value as Record<string, unknown>)['$ref'];
  if (typeof target !== 'string') return null;
  let url: URL;
  try {
    url = new URL(target, `http://unit/restapi/${base.replace(/^\/?(restapi\/)?/, '')}`);
  } catch {
    return null;
  }
  if (url.origin !== 'http://unit' || !url.pathname.startsWith('/restapi/')) return null;
  const path = url.pathname.slice('/restapi/'.length);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * 6. Renderer bundle: every .js and .css under out/renderer/assets of a fresh production build,
 * gzipped (zlib's default level, as Vite reports sizes). Initial = what index.html loads (scripts,
 * stylesheets, module preloads); lazy = chunks loaded on demand (e.g. the meter chart).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildOnce, rendererDir } from './build';
import { row, type Row } from './results';

const TARGET_KB = 150;

export async function measureBundle(): Promise<Row[]> {
  await buildOnce();
  const assets = join(rendererDir, 'assets');
  const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
  const referenced = new Set([...html.matchAll(/(?:src|href)="\.?\/?assets\/([^"]+)"/g)].map((m) => m[1]!));
  const files = (await readdir(assets)).filter((f) => /\.(js|css)$/.test(f));
  let initial = 0;
  let lazy = 0;
  let raw = 0;
  const lazyNames: string[] = [];
  for (const file of files) {
    const body = await readFile(join(assets, file));
    raw += body.length;
    const size = gzipSync(body).length;
    if (referenced.has(file)) initial += size;
    else {
      lazy += size;
      lazyNames.push(file.replace(/-[\w-]{8}\.(js|css)$/, '.$1'));
    }
  }
  const kb = (bytes: number) => bytes / 1024;
  const total = kb(initial + lazy);
  return [
    row({
      measurement: 6,
      figure: 'renderer JS + CSS, gzipped, total',
      value: total,
      unit: 'KB',
      target: `≤ ${TARGET_KB} KB`,
      met: total <= TARGET_KB,
      note: `${files.length} files, ${kb(raw).toFixed(0)} KB before gzip; lazy: ${lazyNames.join(', ') || 'none'}.`,
    }),
    row({
      measurement: 6,
      figure: 'initial (loaded by index.html)',
      value: kb(initial),
      unit: 'KB',
      target: '',
      met: null,
    }),
    row({ measurement: 6, figure: 'lazy chunks', value: kb(lazy), unit: 'KB', target: '', met: null }),
  ];
}

/**
 * Draws Plugboard's icons and writes them as PNG with node:zlib — no image tool needed:
 *   tray/tray-{light|dark}-{on|off|mixed|offline}.png (16 px) and @2x (32 px),
 *   icon.png (512 px, the app icon).
 * "light"/"dark" is the panel the icon sits on: the dark variants have a light outline.
 * Run: npx tsx resources/make-icons.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
/** A shape: coverage of a point in the icon's 32×32 design space (true inside). */
type Shape = (x: number, y: number) => boolean;
interface Layer {
  shape: Shape;
  colour: Rgba;
}

const hex = (text: string, alpha = 255): Rgba => [
  Number.parseInt(text.slice(1, 3), 16),
  Number.parseInt(text.slice(3, 5), 16),
  Number.parseInt(text.slice(5, 7), 16),
  alpha,
];

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}
const circle =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const and =
  (a: Shape, b: Shape): Shape =>
  (x, y) =>
    a(x, y) && b(x, y);
const not =
  (a: Shape): Shape =>
  (x, y) =>
    !a(x, y);

/** Paint layers in order over a transparent canvas, 4×4 samples per pixel. */
function render(size: number, layers: Layer[]): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const scale = 32 / size;
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) * scale;
          const y = (py + (sy + 0.5) / n) * scale;
          let colour: Rgba = [0, 0, 0, 0];
          for (const layer of layers) if (layer.shape(x, y)) colour = layer.colour;
          const alpha = colour[3] / 255;
          r += colour[0] * alpha;
          g += colour[1] * alpha;
          b += colour[2] * alpha;
          a += alpha;
        }
      }
      const at = (py * size + px) * 4;
      pixels[at] = a ? Math.round(r / a) : 0;
      pixels[at + 1] = a ? Math.round(g / a) : 0;
      pixels[at + 2] = a ? Math.round(b / a) : 0;
      pixels[at + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA pixels → PNG (8-bit RGBA, no filtering: icons are tiny). */
export function png(size: number, pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const GREEN = hex('#22c55e');
const RED = hex('#ef4444');
const WHITE = hex('#ffffff');
const face = roundedRect(2, 3, 30, 29, 7);
const inner = roundedRect(4.5, 5.5, 27.5, 26.5, 5);
const slots = [roundedRect(10, 9, 13, 17.5, 1), roundedRect(19, 9, 22, 17.5, 1), circle(16, 22.5, 2.6)];

/** A wall socket: outline and slots in the panel's contrast colour, filled green where outlets are on. */
function trayLayers(state: 'on' | 'off' | 'mixed' | 'offline', dark: boolean): Layer[] {
  const ink = dark ? hex('#f1f5f9') : hex('#1e293b');
  const layers: Layer[] = [{ shape: and(face, not(inner)), colour: ink }];
  if (state === 'on') layers.push({ shape: inner, colour: GREEN });
  if (state === 'mixed') layers.push({ shape: and(inner, (x) => x < 16), colour: GREEN });
  for (const slot of slots) layers.push({ shape: slot, colour: ink });
  if (state === 'offline') {
    layers.push({ shape: circle(24.5, 24.5, 7.5), colour: RED });
    layers.push({ shape: roundedRect(23.2, 19.5, 25.8, 25.5, 1.2), colour: WHITE });
    layers.push({ shape: circle(24.5, 28, 1.4), colour: WHITE });
  }
  return layers;
}

function appIconLayers(): Layer[] {
  const blue = hex('#2563eb');
  return [
    { shape: roundedRect(0.5, 0.5, 31.5, 31.5, 7), colour: blue },
    { shape: roundedRect(5, 6, 27, 26, 5), colour: WHITE },
    ...[roundedRect(10.5, 10, 13, 16.5, 0.8), roundedRect(19, 10, 21.5, 16.5, 0.8), circle(16, 21, 2.2)].map(
      (shape) => ({ shape, colour: blue }),
    ),
    { shape: circle(25.5, 25.5, 3.6), colour: GREEN },
  ];
}

function main(): void {
  const here = import.meta.dirname;
  mkdirSync(join(here, 'tray'), { recursive: true });
  for (const dark of [false, true]) {
    for (const state of ['on', 'off', 'mixed', 'offline'] as const) {
      const base = `tray-${dark ? 'dark' : 'light'}-${state}`;
      for (const [size, suffix] of [
        [16, ''],
        [32, '@2x'],
      ] as const) {
        writeFileSync(
          join(here, 'tray', `${base}${suffix}.png`),
          png(size, render(size, trayLayers(state, dark))),
        );
      }
    }
  }
  writeFileSync(join(here, 'icon.png'), png(512, render(512, appIconLayers())));
}

main();

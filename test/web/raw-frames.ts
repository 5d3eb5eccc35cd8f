import { connect, type Socket } from 'node:net';
import { MAX_MESSAGE } from '../../src-main/web/server';
import { tokenProtocols } from './web-helpers';

/** Hand-written WebSocket frames (RFC 6455 §5.2) for the broken-frame tests. */
interface FrameOptions {
  fin?: boolean;
  rsv?: number;
  mask?: boolean;
  /** Claim this payload length in the header instead of the real one. */
  claimedLength?: number;
}

/** One WebSocket frame as bytes (RFC 6455 §5.2), masked as a client must unless told otherwise. */
export function frame(opcode: number, payload: Buffer, options: FrameOptions = {}): Buffer {
  const { fin = true, rsv = 0, mask = true } = options;
  const length = options.claimedLength ?? payload.length;
  const head = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const maskBit = mask ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126) head.push(maskBit | length);
  else if (length < 65_536) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(BigInt(length));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), extended, payload]);
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!));
  return Buffer.concat([Buffer.from(head), extended, key, masked]);
}

function closePayload(code: number): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code);
  return payload;
}

/** Upgrade a raw TCP connection with the token, as the page would; resolves once the shell says 101. */
export function rawUpgrade(
  port: number,
  token: string,
): Promise<{ socket: Socket; received: () => Buffer; ended: Promise<void> }> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port: port });
    let data = Buffer.alloc(0);
    let upgraded = false;
    socket.on('error', () => undefined); // the shell may reset while a big frame is still being written
    const ended = new Promise<void>((end) =>
      socket.once('close', () => {
        if (!upgraded)
          fail(new Error('the connection closed before the upgrade (is the shell still running?)'));
        end();
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const headEnd = data.indexOf('\r\n\r\n');
      if (upgraded || headEnd < 0) return;
      upgraded = true;
      const head = data.subarray(0, headEnd).toString();
      data = data.subarray(headEnd + 4);
      if (!head.startsWith('HTTP/1.1 101')) fail(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
      else done({ socket, received: () => data, ended });
    });
    socket.once('connect', () => {
      const host = `127.0.0.1:${port}`;
      socket.write(
        [
          'GET /ws HTTP/1.1',
          `Host: ${host}`,
          `Origin: http://${host}`,
          'Connection: Upgrade',
          'Upgrade: websocket',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          `Sec-WebSocket-Protocol: ${tokenProtocols(token).join(', ')}`,
          '',
          '',
        ].join('\r\n'),
      );
    });
  });
}

const MiB = 1024 * 1024;
const callMessage = (input: unknown) =>
  Buffer.from(JSON.stringify({ type: 'call', id: 1, name: 'controllers/add', input }));

export const cases: [string, number, () => Buffer[]][] = [
  ['a frame over 1 MiB', 1009, () => [frame(0x2, Buffer.alloc(MAX_MESSAGE + 1, 7))]],
  [
    'a fragmented message over 1 MiB',
    1009,
    () => [
      frame(0x1, Buffer.alloc(600 * 1024, 'a'), { fin: false }),
      frame(0x0, Buffer.alloc(600 * 1024, 'b')),
    ],
  ],
  ['a 2 GiB length header', 1009, () => [frame(0x2, Buffer.alloc(16), { claimedLength: 2 * 1024 * MiB })]],
  ['invalid UTF-8 in a text frame', 1007, () => [frame(0x1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))]],
  ['an unmasked frame', 1002, () => [frame(0x1, Buffer.from('{}'), { mask: false })]],
  ['a bad opcode', 1002, () => [frame(0x3, Buffer.from('{}'))]],
  ['RSV bits set', 1002, () => [frame(0x1, Buffer.from('{}'), { rsv: 0b100 })]],
  ['a bad close code', 1002, () => [frame(0x8, closePayload(999))]],
  [
    'a large input sent by the page itself',
    1009,
    () => [frame(0x1, callMessage({ name: 'x'.repeat(MAX_MESSAGE), url: 'http://127.0.0.1' }))],
  ],
];

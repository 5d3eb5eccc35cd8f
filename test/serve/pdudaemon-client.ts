/** Talking to the pdudaemon listener as its clients do: an HTTP GET, or one TCP line answered once. */
import { connect } from 'node:net';

export async function pduGet(
  port: number,
  path: string,
): Promise<{ status: number; body: string; type: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return {
    status: response.status,
    body: await response.text(),
    type: response.headers.get('content-type') ?? '',
  };
}

/**
 * Send one line as pduclient does (no newline, no half-close) and read until the listener closes;
 * `from`: the loopback address to send from (127.0.0.2…), as another client would.
 */
export function pduTcp(port: number, line: string, from?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) }, () =>
      socket.write(line),
    );
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
  });
}

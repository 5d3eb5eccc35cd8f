/**
 * Mosquitto's own clients against a test's broker (mosquitto.ts): `mosquitto_sub` and `mosquitto_pub`,
 * independent of Plugboard's MQTT library. Waits are on their output and exits, never on elapsed time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Broker } from './mosquitto';

const clients: ChildProcessWithoutNullStreams[] = [];

/** Kill every client still running. */
export function endClients(): void {
  for (const child of clients.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

export interface Message {
  retained: boolean;
  topic: string;
  correlation: string;
  payload: string;
}

export interface Subscriber {
  messages: Message[];
  /** Resolves with the first message (from the start) that matches, or rejects if the client ends first. */
  next(match: (m: Message) => boolean, from?: number): Promise<Message>;
  /** Resolves once `check` holds for the messages so far. */
  until(check: (messages: Message[]) => boolean): Promise<void>;
  stop(): void;
}

/** How a client logs in as `user` (null: anonymously). */
function login(broker: Broker, user: string | null): string[] {
  return user === null ? [] : ['-u', user, '-P', broker.users[user]!];
}

/** `mosquitto_sub` on the plain listener as `user` (null: anonymous), MQTT 5, printing retain flag, topic, correlation, payload. */
export function subscribe(broker: Broker, user: string | null, topics: string[]): Promise<Subscriber> {
  const args = ['-h', '127.0.0.1', '-p', String(broker.port), ...login(broker, user), '-V', '5'];
  args.push('-F', '%r\u0001%t\u0001%D\u0001%p', '-d');
  for (const topic of topics) args.push('-t', topic);
  // Line-buffered: through a pipe its output would wait for a full buffer.
  const child = spawn('stdbuf', ['-oL', 'mosquitto_sub', ...args]);
  clients.push(child);
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let debug = '';
  let ended = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const parts = line.split('\u0001');
      if (parts.length < 4) {
        debug += `${line}\n`;
        continue;
      }
      const [retained, topic, correlation, ...payload] = parts;
      messages.push({
        retained: retained === '1',
        topic: topic!,
        correlation: correlation!,
        payload: payload.join('\u0001'),
      });
    }
    for (const wake of [...waiters]) wake();
  });
  child.once('exit', () => {
    ended = true;
    for (const wake of [...waiters]) wake();
  });
  const until = (check: (messages: Message[]) => boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const wake = () => {
        if (check(messages)) {
          waiters.delete(wake);
          resolve();
        } else if (ended) {
          waiters.delete(wake);
          reject(new Error(`mosquitto_sub ended:\n${debug}`));
        }
      };
      waiters.add(wake);
      wake();
    });
  const subscriber: Subscriber = {
    messages,
    until,
    async next(match, from = 0) {
      await until((all) => all.slice(from).some(match));
      return messages.slice(from).find(match)!;
    },
    stop: () => child.kill('SIGTERM'),
  };
  // Subscribed once the broker acknowledged (mosquitto_sub -d prints "received SUBACK").
  return new Promise((resolve, reject) => {
    const watch = (chunk: Buffer | string) => {
      debug += chunk.toString();
      if (/received SUBACK/i.test(debug)) resolve(subscriber);
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('exit', (code) => reject(new Error(`mosquitto_sub exited (${code}):\n${debug}`)));
  });
}

/** `mosquitto_pub` as `user` (null: anonymous) to its exit; `extra` adds flags (`-r`, `-V 311`, `-D publish …`). */
export function publish(
  broker: Broker,
  user: string | null,
  topic: string,
  message: string,
  extra: string[] = [],
): Promise<void> {
  const args = ['-h', '127.0.0.1', '-p', String(broker.port), ...login(broker, user), '-q', '1'];
  // An empty message is sent as a null one (-n): how a retained message is cleared.
  args.push('-t', topic, ...(message === '' ? ['-n'] : ['-m', message]), ...extra);
  const child = spawn('mosquitto_pub', args);
  clients.push(child);
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`mosquitto_pub exited ${code}: ${said}`)),
    ),
  );
}

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';

/** An answer as a test sees it; header names lower-case, repeated headers kept. */
export interface Answer {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

export function header(answer: Answer, name: string): string | undefined {
  return answer.headers[name.toLowerCase()]?.[0];
}

export function json(answer: Answer): unknown {
  return JSON.parse(answer.body);
}

export interface CurlOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent with `--data-binary` (curl's default form content type unless a Content-Type header is given). */
  data?: string;
  /** digest (default, `--digest -u`), basic (`--basic -u`) or none. */
  auth?: 'digest' | 'basic' | 'none';
  user?: string;
  password?: string;
  cacert?: string;
  maxTime?: number;
  extra?: string[];
}

export interface CurlAnswer extends Answer {
  /** curl's exit code: 0, or e.g. 7 (refused), 28 (timeout), 52 (empty reply), 60 (certificate). */
  exitCode: number;
  stderr: string;
}

const META = '@@META@@';
const HEADERS = '@@HEADERS@@';
const END = '@@END@@';

/** Runs curl, the vendor's documented client (`curl --digest -u admin:1234 …`). */
export function curl(url: string, options: CurlOptions = {}): Promise<CurlAnswer> {
  const args = ['-s', '-S', '--max-time', String(options.maxTime ?? 20), '-X', options.method ?? 'GET'];
  const auth = options.auth ?? 'digest';
  if (auth !== 'none')
    args.push(`--${auth}`, '-u', `${options.user ?? 'admin'}:${options.password ?? '1234'}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.data !== undefined) args.push('--data-binary', options.data);
  if (options.cacert) args.push('--cacert', options.cacert);
  args.push(...(options.extra ?? []));
  args.push('-w', `%{stderr}${META}%{http_code}${HEADERS}%{header_json}${END}`, url);
  return new Promise((resolvePromise) => {
    execFile('curl', args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      const meta = stderr.indexOf(META);
      const status = meta >= 0 ? Number(stderr.slice(meta + META.length, stderr.indexOf(HEADERS))) : 0;
      const headerText =
        meta >= 0 ? stderr.slice(stderr.indexOf(HEADERS) + HEADERS.length, stderr.indexOf(END)) : '{}';
      let headers: Record<string, string[]>;
      try {
        headers = JSON.parse(headerText || '{}') as Record<string, string[]>;
      } catch {
        headers = {};
      }
      resolvePromise({
        status,
        headers,
        body: stdout,
        exitCode,
        stderr: meta >= 0 ? stderr.slice(0, meta) : stderr,
      });
    });
  });
}

export interface PyRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  auth?: 'digest' | 'basic' | 'none';
  user?: string;
  password?: string;
  timeout?: number;
}

export interface PyJob {
  base: string;
  user?: string;
  password?: string;
  cafile?: string;
  parallel?: number;
  requests: PyRequest[];
}

const PYTHON_CLIENT = resolve(import.meta.dirname, 'dli_client.py');

/** Runs the requests through Python's urllib with HTTPDigestAuthHandler. */
export function python(job: PyJob): Promise<(Answer & { error?: string })[]> {
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      'python3',
      [PYTHON_CLIENT],
      { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`python client failed: ${stderr || error.message}`));
        const raw = JSON.parse(stdout) as {
          status?: number;
          headers?: [string, string][];
          body?: string;
          error?: string;
        }[];
        resolvePromise(
          raw.map((item) => {
            const headers: Record<string, string[]> = {};
            for (const [name, value] of item.headers ?? []) (headers[name.toLowerCase()] ??= []).push(value);
            return {
              status: item.status ?? 0,
              headers,
              body: item.body ?? '',
              ...(item.error ? { error: item.error } : {}),
            };
          }),
        );
      },
    );
    child.stdin?.end(JSON.stringify({ user: 'admin', password: '1234', ...job }));
  });
}

/** Waits for `check` to hold, polling (never a fixed long sleep). */
export async function until<T>(
  probe: () => Promise<T> | T,
  check: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/**
 * A bare request with a hand-computed digest, only for what stock clients cannot express: answering
 * an old nonce (stale), a qop=auth response to a challenge without qop, a uri that does not match.
 */
export function rawDigest(
  url: string,
  options: {
    nonce: string;
    realm: string;
    uri?: string;
    qop?: boolean;
    method?: string;
    password?: string;
    user?: string;
  },
): Promise<Answer> {
  const target = new URL(url);
  const method = options.method ?? 'GET';
  const uri = options.uri ?? target.pathname;
  const user = options.user ?? 'admin';
  const ha1 = md5(`${user}:${options.realm}:${options.password ?? '1234'}`);
  const ha2 = md5(`${method}:${uri}`);
  const cnonce = 'a1b2c3d4';
  const nc = '00000001';
  const response = options.qop
    ? md5(`${ha1}:${options.nonce}:${nc}:${cnonce}:auth:${ha2}`)
    : md5(`${ha1}:${options.nonce}:${ha2}`);
  const qopPart = options.qop ? `, qop=auth, nc=${nc}, cnonce="${cnonce}"` : '';
  const authorization = `Digest username="${user}", realm="${options.realm}", nonce="${options.nonce}", uri="${uri}", response="${response}"${qopPart}`;
  return plain(url, { method, headers: { Authorization: authorization } });
}

/** One request with node:http and no auth logic at all. */
export function plain(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers: Record<string, string[]> = {};
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            (headers[res.rawHeaders[i]!.toLowerCase()] ??= []).push(res.rawHeaders[i + 1]!);
          resolvePromise({
            status: res.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The nonce and realm of a fresh challenge. */
export async function challenge(base: string): Promise<{ nonce: string; realm: string; raw: string }> {
  const answer = await plain(`${base}/restapi/`);
  const raw = header(answer, 'www-authenticate') ?? '';
  const nonce = /nonce="([^"]*)"/.exec(raw)?.[1] ?? '';
  const realm = /realm="([^"]*)"/.exec(raw)?.[1] ?? '';
  return { nonce, realm, raw };
}

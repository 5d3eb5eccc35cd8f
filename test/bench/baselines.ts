/**
 * The other ways people drive these controllers, run against the same emulators as Plugboard:
 * - a naive script that reads every field of every outlet and every meter value with its own request
 *   (digest-fetch, which does reuse the nonce — the kindest case for such a script);
 * - `curl --digest` as the vendor documents it: one curl process per command, each starting with an
 *   unauthenticated request that draws a 401 challenge, so two round trips per command;
 * - switching outlets one by one, and refreshing controllers one after another.
 */
import { execFile } from 'node:child_process';
import DigestClient from 'digest-fetch';

export const USER = 'admin';
export const PASSWORD = '1234';

/** Every field of an outlet, as a naive script reads them (`relay/outlets/N/<field>/`). */
export const OUTLET_FIELDS = [
  'name',
  'state',
  'transient_state',
  'physical_state',
  'locked',
  'critical',
  'cycle_delay',
] as const;

export class NaiveClient {
  readonly #digest: DigestClient;
  readonly #base: string;

  constructor(baseUrl: string) {
    this.#digest = new DigestClient(USER, PASSWORD);
    this.#base = `${baseUrl}/restapi/`;
  }

  async get(path: string): Promise<unknown> {
    const response = await this.#digest.fetch(`${this.#base}${path}`, {
      headers: { Accept: 'application/json' },
    });
    if (response.status !== 200) throw new Error(`naive client: GET ${path} answered ${response.status}`);
    return response.json();
  }

  async put(path: string, value: string): Promise<void> {
    const response = await this.#digest.fetch(`${this.#base}${path}`, {
      method: 'PUT',
      headers: {
        Accept: 'application/json',
        'X-CSRF': 'x',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: `value=${value}`,
    });
    if (response.status >= 300) throw new Error(`naive client: PUT ${path} answered ${response.status}`);
    await response.arrayBuffer();
  }

  /** Everything Plugboard's refresh gets, one field per request. */
  async refresh(outletCount: number, meterKeys: readonly string[]): Promise<void> {
    for (let index = 0; index < outletCount; index++) {
      for (const field of OUTLET_FIELDS) await this.get(`relay/outlets/${index}/${field}/`);
    }
    for (const key of meterKeys) await this.get(`meter/values/${key}/value/`);
  }
}

export interface CurlResult {
  status: number;
  body: string;
}

/** One `curl --digest -u admin:1234` command, as in the vendor's REST cookbook. */
export function curl(url: string, options: { method?: string; data?: string } = {}): Promise<CurlResult> {
  const args = ['-s', '-S', '--max-time', '30', '--digest', '-u', `${USER}:${PASSWORD}`];
  args.push('-H', 'Accept: application/json');
  if (options.method) args.push('-X', options.method);
  if (options.data !== undefined) args.push('-H', 'X-CSRF: x', '--data-binary', options.data);
  args.push('-w', '\n%{http_code}', url);
  return new Promise((resolve, reject) => {
    execFile('curl', args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`curl failed (${String(error.code)}): ${stderr.trim() || error.message}`));
        return;
      }
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
    });
  });
}

/** A full refresh with curl the documented way: the outlet collection, then the meter values. */
export async function curlRefresh(baseUrl: string): Promise<void> {
  for (const path of ['relay/outlets/', 'meter/values/']) {
    const answer = await curl(`${baseUrl}/restapi/${path}`);
    if (answer.status !== 200) throw new Error(`curl: GET ${path} answered ${answer.status}`);
  }
}

/** Fail early with a clear message when curl is not installed. */
export async function assertCurl(): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    execFile('curl', ['--version'], (error) =>
      error
        ? reject(new Error('curl is needed for the vendor baseline: apt-get install -y curl'))
        : resolve(),
    ),
  );
}

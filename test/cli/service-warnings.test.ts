/** What the CLI says before it hands its service token over: the process list, and plain HTTP. */
import { describe, expect, it } from 'vitest';
import { serviceTokenWarnings } from '../../src-main/cli/service-warnings';

const quiet = { sendsToken: true, tokenOnCommandLine: false };

describe('service token warnings', () => {
  it('warns that --service-token shows in the process list', () => {
    expect(
      serviceTokenWarnings({ url: 'https://lab:16422', sendsToken: true, tokenOnCommandLine: true }),
    ).toEqual([
      expect.stringMatching(
        /^--service-token is visible to every user .*process list.*PLUGBOARD_SERVICE_TOKEN or --service-token-file/,
      ),
    ]);
  });

  it('warns that a token sent over plain HTTP to another machine crosses the network in clear', () => {
    for (const url of [
      'http://192.0.2.7:16422',
      'http://lab-pdu.example.org:16422',
      'http://[2001:db8::7]:16422',
    ])
      expect(serviceTokenWarnings({ ...quiet, url }), url).toEqual([
        expect.stringMatching(/is plain HTTP: the token crosses the network in clear.*https:\/\//),
      ]);
  });

  it('is quiet over HTTPS, on loopback, without a token, and for a token from the environment or a file', () => {
    for (const url of [
      'https://192.0.2.7:16422',
      'http://127.0.0.1:16422',
      'http://localhost:1',
      'http://[::1]:1',
    ])
      expect(serviceTokenWarnings({ ...quiet, url }), url).toEqual([]);
    expect(
      serviceTokenWarnings({ url: 'http://192.0.2.7:1', sendsToken: false, tokenOnCommandLine: false }),
    ).toEqual([]);
    expect(serviceTokenWarnings({ url: undefined, ...quiet })).toEqual([]);
  });

  it("names each plain-HTTP address of a lab's list of services", () => {
    expect(
      serviceTokenWarnings({
        ...quiet,
        url: 'https://192.0.2.7:16422, http://192.0.2.8:16422,http://127.0.0.1:1',
      }),
    ).toEqual([expect.stringMatching(/^--service http:\/\/192\.0\.2\.8:16422 is plain HTTP/)]);
  });
});

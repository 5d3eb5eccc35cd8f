import { describe, expect, it } from 'vitest';
import { credentialsFor } from '../../src-main/shared/credentials';

/** The one rule for a saved controller's login, used by the Core's sessions, "add/update controller" and the CLI. */
describe('credentials from a saved controller', () => {
  const saved = { name: 'Bench A', user: 'admin' };

  it('sends a token alone, and a user with the password for digest and basic', () => {
    expect(credentialsFor({ ...saved, auth: 'token', user: '' }, 'id.secret')).toEqual({
      kind: 'token',
      token: 'id.secret',
    });
    expect(credentialsFor({ ...saved, auth: 'digest' }, 'pw')).toEqual({
      kind: 'digest',
      user: 'admin',
      password: 'pw',
    });
    expect(credentialsFor({ ...saved, auth: 'basic' }, 'pw')).toEqual({
      kind: 'basic',
      user: 'admin',
      password: 'pw',
    });
  });

  it('refuses a missing secret with AUTH_FAILED naming what is missing and where to enter it', () => {
    for (const secret of [null, '']) {
      expect(() => credentialsFor({ ...saved, auth: 'digest' }, secret)).toThrow(
        expect.objectContaining({
          code: 'AUTH_FAILED',
          message: expect.stringMatching(/password for user "admin" .*Bench A.*System tab/),
        }),
      );
    }
    expect(() => credentialsFor({ ...saved, auth: 'token', user: '' }, null)).toThrow(
      /No access token is available for Bench A/,
    );
  });
});

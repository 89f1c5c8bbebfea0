import { adminPasswordProblem, firstAdminFrom, setupTokenOf } from '../../src/admin-access/first-admin';
import { ConfigError } from '../../src/kernel/config';
import { isSetupToken } from '../../src/admin-access/setup-token';

describe('firstAdminFrom', () => {
  it('is null when neither variable is set (the setup token applies)', () => {
    expect(firstAdminFrom({})).toBeNull();
    expect(firstAdminFrom(undefined)).toBeNull();
  });

  it('gives the admin to create, email in lower case, names optional', () => {
    expect(firstAdminFrom({ email: ' Ada@Example.com ', password: 'Engine-1843' })).toEqual({
      email: 'ada@example.com',
      password: 'Engine-1843',
      firstname: 'Admin',
      lastname: null,
    });
    expect(firstAdminFrom({ email: 'a@b.co', password: 'Engine-1843', firstname: 'Ada', lastname: 'Lovelace' })).toEqual(
      expect.objectContaining({ firstname: 'Ada', lastname: 'Lovelace' }),
    );
  });

  it('stops the boot with one line when only one of the two is set, or the email is not one', () => {
    expect(() => firstAdminFrom({ email: 'a@b.co' })).toThrow(new ConfigError('ADMIN_EMAIL is set but ADMIN_PASSWORD is not: set both to create the first admin at boot, or neither.'));
    expect(() => firstAdminFrom({ password: 'Engine-1843' })).toThrow(/ADMIN_PASSWORD is set but ADMIN_EMAIL is not/);
    expect(() => firstAdminFrom({ email: 'ada', password: 'Engine-1843' })).toThrow('ADMIN_EMAIL "ada" is not an email address.');
  });

  it('refuses a password that Strapi would refuse, saying which rule it breaks', () => {
    const problem = (password: string) => {
      try {
        firstAdminFrom({ email: 'a@b.co', password });
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).not.toContain('\n');
        expect((error as Error).stack).toBe('');
        return (error as Error).message;
      }
    };
    expect(problem('Ab1')).toMatch(/^ADMIN_PASSWORD is refused by Strapi's admin password rules: it must be at least 8 characters long/);
    expect(problem('abcdefg1')).toMatch(/uppercase letter \(/);
    expect(problem('ABCDEFG1')).toMatch(/lowercase letter \(/);
    expect(problem('Abcdefgh')).toMatch(/a digit \(/);
    expect(problem(`Ab1${'é'.repeat(35)}`)).toMatch(/at most 72 bytes/);
    expect(problem('Abcdefg1')).toBeNull();
  });
});

describe('adminPasswordProblem', () => {
  it('accepts what Strapi accepts', () => {
    expect(adminPasswordProblem('Quire-admin-2026')).toBeNull();
    expect(adminPasswordProblem(`A1${'a'.repeat(70)}`)).toBeNull();
    expect(adminPasswordProblem(`A1${'a'.repeat(71)}`)).toBe('it must be at most 72 bytes long');
  });
});

describe('the setup token', () => {
  it('is derived from the admin secret: the same for every process of a deployment, unguessable without it', () => {
    const token = setupTokenOf('secret one');
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(setupTokenOf('secret one')).toBe(token);
    expect(setupTokenOf('secret two')).not.toBe(token);
  });

  it('is compared whole, and only as a string', () => {
    const token = setupTokenOf('secret');
    expect(isSetupToken(token, token)).toBe(true);
    expect(isSetupToken(token.slice(1), token)).toBe(false);
    expect(isSetupToken('', token)).toBe(false);
    expect(isSetupToken([token], token)).toBe(false);
    expect(isSetupToken(undefined, token)).toBe(false);
  });
});

import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtTokens, tokenLifetimeSeconds } from '#lib/jwt-tokens.ts';
import { scryptPasswords } from '#lib/scrypt-passwords.ts';
import { isStrongPassword, passwordStrength } from '#contracts/password.ts';

describe('scrypt passwords', () => {
  const passwords = scryptPasswords({ N: 2 ** 10, r: 8, p: 1 });

  it('verifies the right password and refuses others', async () => {
    const stored = await passwords.hash('Senha#Forte1');
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await passwords.verify('Senha#Forte1', stored)).toBe(true);
    expect(await passwords.verify('senha#forte1', stored)).toBe(false);
    expect(await passwords.verify('Senha#Forte1', 'garbage')).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await passwords.hash('same')).not.toBe(await passwords.hash('same'));
  });
});

describe('jwt tokens', () => {
  const secret = async () => new TextEncoder().encode('x'.repeat(48));
  it('round-trips the user, the account and a unique id', async () => {
    const tokens = jwtTokens(secret);
    const { token, claims } = await tokens.issue('u1', 'a1');
    expect(await tokens.verify(token)).toEqual(claims);
    expect(claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(tokenLifetimeSeconds - 5);
    expect((await tokens.issue('u1', 'a1')).claims.jti).not.toBe(claims.jti);
  });

  it('carries the session generation: 0 unless given, and 0 for tokens issued without one', async () => {
    const tokens = jwtTokens(secret);
    expect((await tokens.issue('u1', 'a1')).claims.gen).toBe(0);
    const { token, claims } = await tokens.issue('u1', 'a1', 3);
    expect(claims.gen).toBe(3);
    expect(await tokens.verify(token)).toMatchObject({ gen: 3 });
    const sign = (extra: Record<string, unknown>) =>
      new SignJWT({ acc: 'a1', ...extra })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('u1')
        .setJti('j1')
        .setIssuer('conversa')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(48)));
    expect(await tokens.verify(await sign({}))).toMatchObject({ gen: 0 });
    expect(await tokens.verify(await sign({ gen: -1 }))).toBeNull();
    expect(await tokens.verify(await sign({ gen: '2' }))).toBeNull();
  });

  it('refuses expired tokens and tokens signed with another secret', async () => {
    const past = jwtTokens(secret, () => new Date(Date.now() - (tokenLifetimeSeconds + 60) * 1000));
    const { token } = await past.issue('u1', null);
    expect(await jwtTokens(secret).verify(token)).toBeNull();
    const other = jwtTokens(async () => new TextEncoder().encode('y'.repeat(48)));
    expect(await jwtTokens(secret).verify((await other.issue('u1', null)).token)).toBeNull();
  });

  it('keeps a verified token only until it expires, and never a token changed by one character', async () => {
    let at = Date.now();
    const tokens = jwtTokens(secret, () => new Date(at));
    const { token, claims } = await tokens.issue('u1', 'a1');
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [head, body, signature] = token.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(await tokens.verify(flipped)).toBeNull();
    at = claims.exp * 1000;
    expect(await tokens.verify(token)).toBeNull();
    at = claims.exp * 1000 - 1000;
    expect(await tokens.verify(token)).toEqual(claims);
  });
});

describe('password strength', () => {
  it('has four levels and calls only the fourth strong', () => {
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrength('abcdefgh')).toBe(1);
    expect(passwordStrength('abcdEFGH')).toBe(2);
    expect(passwordStrength('abcdEF12')).toBe(3);
    expect(passwordStrength('abcdEF1!')).toBe(4);
    expect(isStrongPassword('aB1!')).toBe(false);
  });
});

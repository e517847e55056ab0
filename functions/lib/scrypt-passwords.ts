/**
 * Password hashing with scrypt (memory-hard, in Node's own crypto): N=2^15, r=8, p=1 (32 MiB per
 * hash), a 16-byte salt and a 64-byte key, stored with its parameters so they can be raised later.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '#domain/ports.ts';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));

const defaults = { N: 2 ** 15, r: 8, p: 1 };

export function scryptPasswords(params = defaults): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await scrypt(password.normalize('NFKC'), salt, 64, { ...params, maxmem: 256 * params.N * params.r });
      return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64');
      const N = Number(n),
        R = Number(r),
        P = Number(p);
      const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
        N,
        r: R,
        p: P,
        maxmem: 256 * N * R,
      });
      return timingSafeEqual(actual, expected);
    },
  };
}

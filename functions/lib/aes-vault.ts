/** Encryption at rest for channel credentials: AES-256-GCM with a key derived from a secret. */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Vault } from '#domain/ports.ts';

export function aesVault(secret: () => Promise<Uint8Array>): Vault {
  const key = async () =>
    createHash('sha256')
      .update(await secret())
      .digest();
  return {
    async seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await key(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    async open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown sealed format');
      const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

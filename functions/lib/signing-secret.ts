/**
 * Secrets the functions need: from the environment variable of their name where it is set (local
 * runtime), else read once per cold start from Secrets Manager through `<NAME>_ARN` (set by the
 * stack).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const cache = new Map<string, Promise<Uint8Array>>();

export function secretBytes(name: string): Promise<Uint8Array> {
  let secret = cache.get(name);
  if (!secret) {
    secret = (async () => {
      const fromEnv = process.env[name];
      if (fromEnv) return new TextEncoder().encode(fromEnv);
      const arn = process.env[`${name}_ARN`];
      if (!arn) throw new Error(`Neither ${name} nor ${name}_ARN is set`);
      const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
      if (!answer.SecretString) throw new Error(`The secret ${name} is empty`);
      return new TextEncoder().encode(answer.SecretString);
    })();
    secret.catch(() => cache.delete(name));
    cache.set(name, secret);
  }
  return secret;
}

/** The access-token signing secret. */
export const signingSecret = () => secretBytes('JWT_SECRET');

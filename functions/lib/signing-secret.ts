/**
 * Secrets the functions need: from the environment variable of their name where it is set (local
 * runtime), else read once per cold start from Secrets Manager through `<NAME>_ARN` (set by the
 * stack).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { traced } from './observability.ts';

let client: SecretsManagerClient | undefined;
/** One Secrets Manager client per process, made when a secret is first read from it. */
const secretsManager = () => (client ??= traced(new SecretsManagerClient({})));

const cache = new Map<string, Promise<Uint8Array>>();

export function secretBytes(name: string): Promise<Uint8Array> {
  let secret = cache.get(name);
  if (!secret) {
    secret = (async () => {
      const fromEnv = process.env[name];
      if (fromEnv) return new TextEncoder().encode(fromEnv);
      const arn = process.env[`${name}_ARN`];
      if (!arn) throw new Error(`Neither ${name} nor ${name}_ARN is set`);
      const answer = await secretsManager().send(new GetSecretValueCommand({ SecretId: arn }));
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

/** The value a secret of the stack holds until an operator sets it (`aws secretsmanager put-secret-value`). */
export const unsetSecretValue = 'unset';

const optionalCache = new Map<string, Promise<string | null>>();

/**
 * A secret that may be absent: the environment variable of its name, else `<NAME>_ARN` read once
 * from Secrets Manager. Null when neither is set, or the stored value is empty or still 'unset'
 * (a null is not remembered).
 */
export function optionalSecret(name: string): Promise<string | null> {
  let secret = optionalCache.get(name);
  if (!secret) {
    secret = (async () => {
      const fromEnv = process.env[name]?.trim();
      if (fromEnv) return fromEnv === unsetSecretValue ? null : fromEnv;
      const arn = process.env[`${name}_ARN`];
      if (!arn) return null;
      const answer = await secretsManager().send(new GetSecretValueCommand({ SecretId: arn }));
      const value = answer.SecretString?.trim();
      return value && value !== unsetSecretValue ? value : null;
    })();
    // Absent or failed values are asked again next time: an operator may set the secret meanwhile.
    secret.then((value) => value ?? optionalCache.delete(name)).catch(() => optionalCache.delete(name));
    optionalCache.set(name, secret);
  }
  return secret;
}

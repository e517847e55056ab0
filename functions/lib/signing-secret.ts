/**
 * The access-token signing secret: JWT_SECRET where the environment gives it (local runtime), else
 * read once per cold start from Secrets Manager (JWT_SECRET_ARN, set by the stack).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let secret: Promise<Uint8Array> | undefined;

export function signingSecret(): Promise<Uint8Array> {
  secret ??= (async () => {
    const fromEnv = process.env.JWT_SECRET;
    if (fromEnv) return new TextEncoder().encode(fromEnv);
    const arn = process.env.JWT_SECRET_ARN;
    if (!arn) throw new Error('Neither JWT_SECRET nor JWT_SECRET_ARN is set');
    const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    if (!answer.SecretString) throw new Error('The signing secret is empty');
    return new TextEncoder().encode(answer.SecretString);
  })();
  secret.catch(() => (secret = undefined));
  return secret;
}

/** A small HTTP client for the integration tests, and the steps most tests start from. */
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { inject } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanLimits } from '#contracts/plans.ts';
import { keys } from '#db/keys.ts';

export interface Answer<T = any> {
  status: number;
  body: T;
}

export type Call = <T = any>(
  method: string,
  path: string,
  options?: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> },
) => Promise<Answer<T>>;

/** The shared runtime's API. */
export const call: Call = (method, path, options) => callAt(() => inject('baseUrl'))(method, path, options);

/** A client of the API of a runtime at `baseUrl` (a test's own runtime). */
export const callAt =
  (baseUrl: () => string): Call =>
  async (method, path, options = {}) => {
    const res = await fetch(`${baseUrl()}/api${path}`, {
      method,
      headers: {
        ...(options.body !== undefined || options.raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body };
  };

let counter = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;
export const strongPassword = 'Senha#Forte123';
/** A Telegram-shaped bot token no other connection uses (`<bot id>:<secret>`). */
export const uniqueBotToken = () => `${Date.now() % 1_000_000_000}${++counter}:AAH-test-${process.pid}-${counter}`;

/** The newest e-mail the local outbox holds for an address. */
export async function lastMail(to: string): Promise<{ to: string; subject: string; text: string; code?: string } | undefined> {
  const dir = inject('outboxDir');
  const files = (await readdir(dir).catch(() => [] as string[])).sort().reverse();
  for (const file of files) {
    const mail = JSON.parse(await readFile(join(dir, file), 'utf8'));
    if (mail.to === to) return mail;
  }
  return undefined;
}

export interface Member {
  token: string;
  user: any;
  email: string;
  password: string;
  accountId: string;
}

/**
 * Signs a new person up, from a loopback address of their own: the sign-up budget counts per
 * caller address (200 an hour), and the suite signs up more people than one address may.
 */
export async function register(name = 'Pessoa Teste', email = uniqueEmail(), password = strongPassword) {
  const answer = await callFrom(uniqueLoopback())('POST', '/auth/register', { body: { name, email, password } });
  if (answer.status !== 201) throw new Error(`register failed: ${JSON.stringify(answer.body)}`);
  return { ...answer.body, email, password } as { id: string; accessToken: string; user: any; email: string; password: string };
}

/** A new person with a new account of their own (owner and admin). */
export async function newOwner(accountName = 'Loja Teste', name = 'Dona Teste'): Promise<Member> {
  const person = await register(name);
  const created = await call('POST', '/accounts', { token: person.accessToken, body: { name: accountName } });
  if (created.status !== 201) throw new Error(`create account failed: ${JSON.stringify(created.body)}`);
  return { token: created.body.accessToken, user: created.body.user, email: person.email, password: person.password, accountId: created.body.id };
}

/** Logs a user of an account in. */
export async function signIn(email: string, password: string, accountId?: string): Promise<string> {
  const answer = await call('POST', '/auth/login', { body: { email, password, accountId } });
  if (answer.status !== 200 || !answer.body.accessToken) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return answer.body.accessToken;
}

let doc: DynamoDBDocumentClient | undefined;
/** Sets an account's plan straight in the table, as the billing webhook will. */
export async function setPlan(accountId: string, plan: PlanLimits): Promise<void> {
  doc ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
  await doc.send(
    new UpdateCommand({
      TableName: inject('tableName'),
      Key: keys.account(accountId),
      UpdateExpression: 'SET #plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': plan },
    }),
  );
}

/** A Pro account with an owner, an extra admin and a plain member. */
export async function proTeam() {
  const owner = await newOwner('Equipe Pro');
  await setPlan(owner.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 25000 });
  const addUser = async (name: string, isAdmin: boolean) => {
    const email = uniqueEmail(name.toLowerCase());
    const created = await call('POST', '/users', { token: owner.token, body: { name, email, password: strongPassword, isAdmin } });
    if (created.status !== 201) throw new Error(`create user failed: ${JSON.stringify(created.body)}`);
    return { id: created.body.id as string, email };
  };
  const withSession = async (user: { id: string; email: string }) => ({ ...user, token: await signIn(user.email, strongPassword) });
  // The admin is made before the member, as ever; the admin signs in while the member is made
  // (each is a password hash, the costliest step here, and the runtime hashes on a thread pool).
  const [admin, member] = await addUser('Admin', true).then((made) => Promise.all([withSession(made), addUser('Membro', false).then(withSession)]));
  return { owner, admin, member };
}

/**
 * A client whose requests come from another loopback address (127.x.y.z): the caller address the
 * per-address budgets count, so a test that spends one does not spend the other tests'.
 */
export function callFrom(address: string): Call {
  return (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${inject('baseUrl')}/api${path}`);
      const payload = options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
      const req = request(
        url,
        {
          method,
          localAddress: address,
          headers: {
            ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...options.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: any = text;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              /* not JSON: keep the text */
            }
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

let addresses = 0;
/** A loopback address no other test (or worker) of this run uses. */
export const uniqueLoopback = () => `127.${1 + (process.pid % 250)}.${1 + (Math.floor(Date.now() / 1000) % 250)}.${1 + (++addresses % 250)}`;

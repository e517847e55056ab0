/**
 * Concurrent sign-ups with one e-mail (differently cased, as browsers send it), through the real
 * HTTP gateway, several rounds: exactly one user is made and can sign in, every other answer is the
 * catalogue's 'Email already exists', one verification e-mail goes out, and the address's sign-up
 * budget counted every request. Sent from their own loopback address (127.0.0.2), so the shared
 * runtime's sign-up budget for 127.0.0.1 is left to the other tests.
 */
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { entityTypes, keys } from '#db/keys.ts';
import { describe, expect, inject, it } from 'vitest';
import { readCounter } from '#db/rate-counters.ts';
import { signupClaimHolder, usersByEmail } from '#db/users.ts';
import { limits } from '#domain/auth/rate-limits.ts';
import { call, strongPassword, uniqueEmail } from './api.ts';

const sourceAddress = '127.0.0.2';

/** POST /api/auth/register from `sourceAddress`. */
function registerFrom(body: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(`${inject('baseUrl')}/api/auth/register`);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: sourceAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const table = () => ({
  name: inject('tableName'),
  doc: DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  ),
});

async function mailsTo(address: string): Promise<number> {
  const dir = inject('outboxDir');
  let n = 0;
  for (const file of await readdir(dir).catch(() => [] as string[])) {
    if (JSON.parse(await readFile(join(dir, file), 'utf8')).to === address) n++;
  }
  return n;
}

const rounds = 5;
const racers = 6;

describe('concurrent sign-ups with one e-mail', () => {
  it(`make exactly one user, ${rounds} rounds of ${racers} at once`, async () => {
    const budgetBefore = await readCounter(table(), limits.registerPerAddress.scope, sourceAddress, limits.registerPerAddress.windowSeconds, Date.now());
    for (let round = 0; round < rounds; round++) {
      const email = uniqueEmail('corrida');
      const spellings = [email, email.toUpperCase(), ` ${email}`, email.replace(/^./, (c) => c.toUpperCase())];
      const attempts = Array.from({ length: racers }, (_, i) => ({
        name: `Pessoa ${i}`,
        email: spellings[i % spellings.length],
        password: `${strongPassword}${i}`,
      }));
      const answers = await Promise.all(attempts.map(registerFrom));

      const won = answers.map((a, i) => ({ a, i })).filter(({ a }) => a.status === 201);
      expect(won, `round ${round}: ${JSON.stringify(answers.map((a) => a.status))}`).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201))
        expect(a).toEqual({ status: 400, body: expect.objectContaining({ message: 'Email already exists' }) });

      const winner = won[0]!;
      const users = await usersByEmail(table(), email);
      expect(users.map((u) => u.id)).toEqual([winner.a.body.id]);
      expect(users[0]).toMatchObject({ name: `Pessoa ${winner.i}`, accountId: null });
      expect(await signupClaimHolder(table(), email)).toBe(winner.a.body.id);
      // The winner's password signs in; a loser's does not.
      expect((await call('POST', '/auth/login', { body: { email, password: attempts[winner.i]!.password } })).status).toBe(200);
      const loser = (winner.i + 1) % racers;
      expect((await call('POST', '/auth/login', { body: { email, password: attempts[loser]!.password } })).status).toBe(401);
      expect(await mailsTo(email)).toBe(1);
    }
    const budgetAfter = await readCounter(table(), limits.registerPerAddress.scope, sourceAddress, limits.registerPerAddress.windowSeconds, Date.now());
    expect(budgetAfter - budgetBefore).toBe(rounds * racers);
  }, 120_000);

  it('leave the e-mail free again once its user is deleted, and only one of the next racers takes it', async () => {
    const email = uniqueEmail('de-novo');
    const first = await registerFrom({ name: 'Primeira', email, password: strongPassword });
    expect(first.status).toBe(201);
    const account = await call('POST', '/accounts', { token: first.body.accessToken, body: { name: 'Loja Passageira' } });
    expect(account.status).toBe(201);
    expect((await call('DELETE', `/accounts/${account.body.id}`, { token: account.body.accessToken })).status).toBe(204);
    await expect.poll(async () => (await usersByEmail(table(), email)).length, { timeout: 30_000 }).toBe(0);
    // Deleting the user freed the claim: nothing with the e-mail is left.
    expect(await signupClaimHolder(table(), email)).toBeUndefined();

    const again = await Promise.all([0, 1, 2].map((i) => registerFrom({ name: `De novo ${i}`, email, password: strongPassword })));
    expect(again.map((a) => a.status).sort()).toEqual([201, 400, 400]);
    const winner = again.find((a) => a.status === 201)!;
    expect((await usersByEmail(table(), email)).map((u) => u.id)).toEqual([winner.body.id]);
    expect(await signupClaimHolder(table(), email)).toBe(winner.body.id);
  }, 60_000);

  it('take over a claim whose user no longer exists (left by a crash between deleting the user and freeing the claim)', async () => {
    const email = uniqueEmail('orfa');
    await table().doc.send(
      new PutCommand({
        TableName: inject('tableName'),
        Item: { ...keys.signupEmail(email), type: entityTypes.signupClaim, userId: '01GONE000000000000000000000' },
      }),
    );
    const answer = await registerFrom({ name: 'Herdeira', email, password: strongPassword });
    expect(answer.status).toBe(201);
    expect(await signupClaimHolder(table(), email)).toBe(answer.body.id);
  });
});

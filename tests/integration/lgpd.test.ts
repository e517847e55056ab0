/**
 * LGPD: deleting and exporting data. Deleting an account, through a runtime of its own (Telegram on its Bot API double, long
 * polled by the runtime's channel worker): the request answers at once and ends every session; the
 * purge job then removes every item of the account from the table and every object from the bucket,
 * stops and forgets its connections, and mails the owner. A scan of the whole table and bucket
 * afterwards finds no trace of the account's ids, and another account is untouched. A runtime
 * stopped in the middle of a purge resumes it when started again on the same data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import WebSocket from 'ws';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { listQueryString } from '#contracts/list-query.ts';
import { keys } from '#db/keys.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../support/local-runtime.ts';
import { realtimeUrl } from '../support/realtime-url.ts';
import { startFakeTelegram, type FakeTelegram, type Person } from '../support/fake-telegram.ts';
import { callAt } from './api.ts';

const password = 'Senha#Forte123';
let counter = 0;
const customer = (n: number): Person => ({ id: 800_000 + n * 13 + counter, first_name: 'Cliente', last_name: `Número ${n}` });
const newToken = () => `${8_000_000 + ++counter}:AAH-del-${process.pid}-${counter}-tokenXYZ`;

async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let fake: FakeTelegram;
let runtime: RunningRuntime;
const dataDir = mkdtempSync(join(tmpdir(), 'conversa-deletion-'));
const env = () => ({ TELEGRAM_API_ROOT: fake.url, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT: '2' });
const call = callAt(() => runtime.url);

const db = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
const s3 = () =>
  new S3Client({
    endpoint: runtime.s3Url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });

beforeAll(async () => {
  fake = await startFakeTelegram();
  runtime = await spawnLocalRuntime(env(), dataDir);
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every item of the table, whole. */
async function scanTable(): Promise<Record<string, unknown>[]> {
  const client = db();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: runtime.tableName, ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every key of the bucket. */
async function listBucket(): Promise<string[]> {
  const client = s3();
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: runtime.bucketName, ContinuationToken: token }));
    found.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return found;
}

async function mailsTo(address: string): Promise<{ subject: string; text: string }[]> {
  const files = await readdir(runtime.outboxDir).catch(() => [] as string[]);
  const mails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(runtime.outboxDir, f), 'utf8'))));
  return mails.filter((m) => m.to === address);
}

const deletionJob = async (accountId: string) =>
  (await db().send(new GetCommand({ TableName: runtime.tableName, Key: keys.accountDeletion(accountId), ConsistentRead: true }))).Item;

/** An owner of a Pro account with a second user, a started Telegram connection, customers who wrote (text, photo, avatar) and an open realtime socket. */
async function busyAccount(tag: string) {
  const email = `del.${tag}.${Date.now().toString(36)}.${process.pid}.${++counter}@example.com`;
  const person = await call('POST', '/auth/register', { body: { name: `Dona ${tag}`, email, password } });
  const account = await call('POST', '/accounts', { token: person.body.accessToken, body: { name: `Loja ${tag}` } });
  expect(account.status).toBe(201);
  const accountId = account.body.id as string;
  const token = account.body.accessToken as string;
  await db().send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: keys.account(accountId),
      UpdateExpression: 'SET #plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 10, connections: 5, contacts: 25000 } },
    }),
  );
  const member = await call('POST', '/users', { token, body: { name: 'Atendente', email: `m.${email}`, password, isAdmin: false } });
  expect(member.status).toBe(201);

  const botToken = newToken();
  const bot = fake.addBot(botToken, `Loja ${tag}`);
  const service = await call('POST', '/services', { token, body: { name: 'Bot da loja', type: 'telegram', token: botToken } });
  expect(service.status).toBe(201);
  expect((await call('POST', `/services/${service.body.id}/start`, { token })).status).toBe(200);
  await eventually(async () => (await call('GET', `/services/${service.body.id}`, { token })).body.status === 'connected');
  await eventually(async () => bot.polling);

  const first = customer(1);
  bot.setProfilePhoto(first.id, Buffer.from('\xff\xd8\xff avatar', 'latin1'));
  bot.receive(first, { text: 'Olá, quero um orçamento' });
  const photoId = bot.addFile(Buffer.from('\xff\xd8\xff photo bytes', 'latin1'), `photos/${tag}.jpg`);
  bot.receive(first, { photo: [{ file_id: photoId, file_unique_id: `p-${tag}`, width: 800, height: 800 }], caption: 'Este aqui' });
  bot.receive(customer(2), { text: 'Bom dia' });
  const contacts = await eventually(async () => {
    const list = (await call('GET', '/contacts', { token })).body.data as any[];
    return list.length === 2 && list.every((c) => c.lastMessage) ? list : null;
  });
  const withPhoto = contacts.find((c) => c.idFromService === String(first.id))!;
  await eventually(async () => {
    const page = await call('GET', `/messages${listQueryString({ where: { contactId: withPhoto.id } })}`, { token });
    return page.body.totalCount === 2 && page.body.data.some((m: any) => m.file?.url);
  });
  await eventually(async () => (await call('GET', `/contacts/${withPhoto.id}`, { token })).body.avatar?.url);

  const socket = new WebSocket(await realtimeUrl(runtime.url, token));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    accountId,
    token,
    email,
    memberId: member.body.id as string,
    memberEmail: `m.${email}`,
    ownerId: account.body.user.id as string,
    serviceId: service.body.id as string,
    contactIds: contacts.map((c) => c.id as string),
    bot,
    socket,
  };
}

/** Copies of a contact's newest message, stored straight in the table (a long conversation). */
async function lengthenConversation(accountId: string, contactId: string, count: number): Promise<void> {
  const { pk, skPrefix } = keys.contactMessages(accountId, contactId);
  const { Items } = await db().send(
    new QueryCommand({
      TableName: runtime.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': skPrefix },
      Limit: 1,
    }),
  );
  const model = Items![0]!;
  for (let i = 0; i < count; i += 25) {
    const batch = Array.from({ length: Math.min(25, count - i) }, () => {
      const id = ulid();
      return { PutRequest: { Item: { ...model, ...keys.message(accountId, contactId, id), id, text: `mensagem ${id}` } } };
    });
    await db().send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: batch } }));
  }
}

/** What is left anywhere of an account: table items and bucket keys that mention any of its ids. */
async function traces(ids: string[]) {
  const items = (await scanTable()).filter((item) => {
    const text = JSON.stringify(item);
    return ids.some((id) => text.includes(id));
  });
  const objects = (await listBucket()).filter((key) => ids.some((id) => key.includes(id)));
  return { items, objects };
}

describe('deleting an account', () => {
  it('answers at once, then removes every item, file and session of the account, mails the owner, and leaves another account as it was', async () => {
    const victim = await busyAccount('alvo');
    const bystander = await busyAccount('vizinha');
    const bystanderBefore = await traces([bystander.accountId]);
    expect(bystanderBefore.items.length).toBeGreaterThan(10);
    expect(bystanderBefore.objects.length).toBeGreaterThanOrEqual(2);
    // A campaign of its own (recipients and lanes in a partition of the campaign's), due in the future so it sends nothing meanwhile.
    const campaign = await call('POST', '/campaigns', {
      token: victim.token,
      body: {
        name: 'Promoção',
        audience: { kind: 'contacts', contactIds: victim.contactIds },
        serviceIds: [victim.serviceId],
        message: { text: 'Olá {{primeiro_nome}}' },
        startAt: '2099-01-01T12:00:00.000Z',
        window: { kind: 'business-hours' },
        pace: { minGapSeconds: 20, maxGapSeconds: 60, dailyLimit: 200, dailyNewChats: 30 },
      },
    });
    expect(campaign.status).toBe(201);
    // An API token (ADR-0232) with one audited call: its lookup item and its calls live outside the account's partition.
    const apiToken = await call('POST', '/api-tokens', { token: victim.token, body: { name: 'n8n', scopes: ['contacts:read'] } });
    expect(apiToken.status).toBe(201);
    expect((await call('GET', '/contacts', { token: apiToken.body.secret })).status).toBe(200);
    // Conversation events (reports) in a partition per month, outside the account's: this month's
    // conversations, and one of an account made two months ago (back-dated), in that month's.
    const eventsOf = async (month: string) =>
      (
        await db().send(
          new QueryCommand({
            TableName: runtime.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.conversationEventsOf(victim.accountId, month).pk },
          }),
        )
      ).Items ?? [];
    const thisMonth = new Date().toISOString().slice(0, 7);
    const started = await eventually(async () => {
      const events = await eventsOf(thisMonth);
      return events.filter((e) => e.kind === 'started').length === 2 && events;
    });
    const now = new Date();
    const earlier = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 15, 12)).toISOString();
    const earlierMonth = earlier.slice(0, 7);
    await db().send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: keys.account(victim.accountId),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': earlier },
      }),
    );
    const old = { ...started[0]!, ...keys.conversationEvent(victim.accountId, earlier, started[0]!.contactId as string, 'started'), at: earlier };
    await db().send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: [{ PutRequest: { Item: old } }] } }));
    expect(await eventsOf(earlierMonth)).toHaveLength(1);
    const victimIds = [
      victim.accountId,
      victim.serviceId,
      victim.memberId,
      victim.ownerId,
      ...victim.contactIds,
      campaign.body.id as string,
      apiToken.body.token.id as string,
    ];
    const before = await traces(victimIds);
    expect(before.items.length).toBeGreaterThan(10);
    expect(before.objects.length).toBeGreaterThanOrEqual(2);

    const answer = await call('DELETE', `/accounts/${victim.accountId}`, { token: victim.token });
    expect(answer.status).toBe(204);
    // Unusable at once: the session, sign-in and the account's routes are refused.
    expect((await call('GET', '/auth/me', { token: victim.token })).status).toBe(401);
    expect((await call('GET', '/contacts', { token: victim.token })).status).toBe(401);
    expect((await call('GET', '/contacts', { token: apiToken.body.secret })).status).toBe(401);
    expect((await call('POST', '/auth/login', { body: { email: victim.email, password, accountId: victim.accountId } })).status).toBe(401);

    // The purge runs in the background until its job is gone, then the owner hears of it.
    await eventually(async () => !(await deletionJob(victim.accountId)), 60_000);
    const [mail] = await eventually(async () => {
      const found = await mailsTo(victim.email);
      return found.some((m) => m.subject === 'Sua conta no Conversa foi excluída') && found.filter((m) => m.subject === 'Sua conta no Conversa foi excluída');
    });
    expect(mail!.text).toContain('A exclusão da conta "Loja alvo" no Conversa foi concluída.');

    // Nothing of the account is left, in the table or the bucket.
    expect(await traces(victimIds)).toEqual({ items: [], objects: [] });
    expect([...(await eventsOf(thisMonth)), ...(await eventsOf(earlierMonth))]).toEqual([]);
    // The bot stopped being polled (its session ended) and its webhook and offset are forgotten.
    await eventually(async () => !victim.bot.polling);

    // The other account is as it was, and works.
    const bystanderAfter = await traces([bystander.accountId]);
    expect(bystanderAfter.objects.sort()).toEqual(bystanderBefore.objects.sort());
    const keyOf = (i: Record<string, unknown>) => `${i.pk as string}|${i.sk as string}`;
    expect(bystanderAfter.items.map(keyOf).sort()).toEqual(bystanderBefore.items.map(keyOf).sort());
    expect((await call('GET', '/contacts', { token: bystander.token })).body.totalCount).toBe(2);
    victim.socket.close();
    bystander.socket.close();
  }, 120_000);

  it('a runtime killed in the middle of a purge resumes it when started again on the same data, and finishes it', async () => {
    const victim = await busyAccount('reinicio');
    // Long enough (ten steps of 400) that the purge is still under way when the kill lands.
    await lengthenConversation(victim.accountId, victim.contactIds[0]!, 4000);
    const victimIds = [victim.accountId, victim.serviceId, victim.memberId, victim.ownerId, ...victim.contactIds];
    victim.socket.close();

    expect((await call('DELETE', `/accounts/${victim.accountId}`, { token: victim.token })).status).toBe(204);
    // Stopped while the purge is removing the long conversation.
    const midway = await eventually(async () => {
      const job = await deletionJob(victim.accountId);
      return job && job.phase === 'contacts' && (job.removedItems as number) > 0 ? job : null;
    }, 60_000);
    expect(midway.phase).toBe('contacts');
    // Killed, not stopped: a graceful stop would let the stream's pending steps run to the end.
    await runtime.kill();

    runtime = await spawnLocalRuntime(env(), dataDir);
    const resumed = await deletionJob(victim.accountId);
    // The job was still there after the stop (the purge had not finished), and it finishes now.
    expect(resumed).toBeDefined();
    await eventually(async () => !(await deletionJob(victim.accountId)), 90_000);
    expect(await traces(victimIds)).toEqual({ items: [], objects: [] });
    await eventually(async () => (await mailsTo(victim.email)).some((m) => m.subject === 'Sua conta no Conversa foi excluída'));
  }, 240_000);
});

describe('deleting a contact', () => {
  it('removes its messages, their files and its avatar in the background; the other contacts keep theirs', async () => {
    const team = await busyAccount('contato');
    team.socket.close();
    const contacts = (await call('GET', '/contacts', { token: team.token })).body.data as any[];
    const [gone, kept] = [contacts.find((c) => c.avatar)!, contacts.find((c) => !c.avatar)!];
    await lengthenConversation(team.accountId, gone.id, 450);
    const messagesOf = (contactId: string) => call('GET', `/messages${listQueryString({ where: { contactId } })}`, { token: team.token });
    const keptBefore = (await messagesOf(kept.id)).body.totalCount;
    const fileKeys = (await scanTable()).flatMap((i: any) => (i.type === 'Message' && i.contactId === gone.id && i.file ? [i.file.objectKey] : []));
    expect(new Set(fileKeys).size).toBe(1); // the photo (every copy of the message carries it)
    expect(await listBucket()).toEqual(expect.arrayContaining(fileKeys));
    // The avatar's key names the person on the channel, not the contact.
    const avatarKey = (await listBucket()).find((key) => key.includes(`/avatars/${team.serviceId}/`))!;
    expect(avatarKey).toBeDefined();

    expect((await call('DELETE', `/contacts/${gone.id}`, { token: team.token })).status).toBe(204);
    expect((await call('GET', `/contacts/${gone.id}`, { token: team.token })).status).toBe(404);
    // Only the tombstone is left (the directories learn of the deletion from it), without the purge mark.
    const left = await eventually(async () => {
      const found = await traces([gone.id]);
      return found.items.length === 1 && !found.items[0]!.purge ? found : null;
    }, 60_000);
    expect(left.items[0]).toMatchObject({ type: 'ContactTombstone', id: gone.id });
    expect(left.objects).toEqual([]);
    const bucket = await listBucket();
    expect(bucket).not.toContain(avatarKey);
    expect(bucket.filter((key) => fileKeys.includes(key))).toEqual([]);
    // The guards that found its messages by channel message id went with them.
    const guards = (await scanTable()).filter((i) => i.type === 'ChannelMessage' && i.contactId === gone.id);
    expect(guards).toEqual([]);
    expect((await messagesOf(kept.id)).body.totalCount).toBe(keptBefore);
  }, 120_000);
});

describe("exporting a contact's data", () => {
  it('gives an admin the profile and the whole conversation, oldest first, with links that download the files; members and other accounts get nothing', async () => {
    const team = await busyAccount('exportar');
    team.socket.close();
    const contacts = (await call('GET', '/contacts', { token: team.token })).body.data as any[];
    const contact = contacts.find((c) => c.avatar)!;
    await lengthenConversation(team.accountId, contact.id, 30);

    const answer = await call('GET', `/contacts/${contact.id}/export`, { token: team.token });
    expect(answer.status).toBe(200);
    expect(answer.body.contact).toMatchObject({ id: contact.id, name: contact.name, idFromService: contact.idFromService });
    expect(answer.body.messages).toHaveLength(32);
    const ids = answer.body.messages.map((m: any) => m.id);
    expect(ids).toEqual([...ids].sort());
    expect(answer.body.messages[0]).toMatchObject({ text: 'Olá, quero um orçamento', isFromMe: false, contactId: contact.id });
    const withFile = answer.body.messages.find((m: any) => m.file);
    const download = await fetch(withFile.file.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from('\xff\xd8\xff photo bytes', 'latin1'));
    expect((await fetch(answer.body.contact.avatar.url)).status).toBe(200);

    const memberLogin = await call('POST', '/auth/login', { body: { email: team.memberEmail, password, accountId: team.accountId } });
    expect((await call('GET', `/contacts/${contact.id}/export`, { token: memberLogin.body.accessToken })).status).toBe(403);
    const other = await busyAccount('outra');
    other.socket.close();
    expect((await call('GET', `/contacts/${contact.id}/export`, { token: other.token })).status).toBe(404);
  }, 120_000);
});

describe("exporting the whole account's data", () => {
  it('an admin starts an export; it runs in the background and answers a link to a JSON Lines archive of the account, with no secrets', async () => {
    const team = await busyAccount('arquivo');
    team.socket.close();
    await lengthenConversation(team.accountId, team.contactIds[0]!, 600);
    const started = await call('POST', `/accounts/${team.accountId}/exports`, { token: team.token });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'running', url: null });
    const done = await eventually(async () => {
      const answer = await call('GET', `/accounts/${team.accountId}/exports/${started.body.id}`, { token: team.token });
      return answer.body.status === 'done' ? answer.body : null;
    }, 60_000);
    const archive = await (await fetch(done.url)).text();
    const records = archive
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(done.lines);
    const kinds = (kind: string) => records.filter((r) => r.kind === kind);
    expect(kinds('Account')).toEqual([expect.objectContaining({ id: team.accountId, name: 'Loja arquivo' })]);
    expect(
      kinds('User')
        .map((u) => u.id)
        .sort(),
    ).toEqual([team.ownerId, team.memberId].sort());
    expect(kinds('Service')).toEqual([expect.objectContaining({ id: team.serviceId, name: 'Bot da loja' })]);
    expect(
      kinds('Contact')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...team.contactIds].sort());
    expect(kinds('Message')).toHaveLength(3 + 600);
    expect(archive).not.toMatch(/passwordHash|tokenSealed|AAH-del/);
    // The parts are gone; only the archive is left of the export in the bucket.
    const exportObjects = (await listBucket()).filter((key) => key.includes(`/exports/${started.body.id}/`));
    expect(exportObjects).toEqual([`accounts/${team.accountId}/exports/${started.body.id}/conversa-dados.jsonl`]);

    const memberLogin = await call('POST', '/auth/login', { body: { email: team.memberEmail, password, accountId: team.accountId } });
    expect((await call('POST', `/accounts/${team.accountId}/exports`, { token: memberLogin.body.accessToken })).status).toBe(403);
    expect((await call('GET', `/accounts/${team.accountId}/exports/${started.body.id}`, { token: memberLogin.body.accessToken })).status).toBe(403);
  }, 120_000);
});

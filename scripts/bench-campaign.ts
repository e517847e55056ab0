/**
 * `npm run bench:campaign`: a campaign to 10,000 contacts (ADR-0227) through a local
 * runtime of its own (a child process, as `npm start` runs it) on the HTTP channel double, spread
 * over WhatsApp connections, the runtime killed with SIGKILL in the middle and started again on the
 * same data. Prints and writes to bench/results.md: the time to enqueue the audience (a segment's
 * preparation: reading who it matches and writing the recipients), the runtime's memory, the pace
 * achieved against the pace asked for (and the shortest gap between two sends of one number), and
 * the outcome after the kill: duplicates (a contact reached twice) and losses (a contact never sent
 * and never skipped). Not a test: run by hand.
 *
 *   npm run bench:campaign [-- contacts connections]
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign } from '#contracts/campaigns.ts';
import { contactItem } from '#db/contacts.ts';
import { keys } from '#db/keys.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../tests/support/local-runtime.ts';

const contacts = Number(process.argv[2] ?? 10_000);
const connections = Number(process.argv[3] ?? 50);
const gapSeconds = 1;

/** The local runtime's process (this process's child running its entry): its pid from /proc. */
function childPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('runtime-with-double')) return Number(entry);
    } catch {
      // A process that ended meanwhile.
    }
  }
  throw new Error('no runtime process');
}

function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

type Sent = { connection: { serviceId: string }; message: { to: string; text: string }; at: number };

async function main() {
  const fake = await startFakeChannel();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-campaign-'));
  const env = { FAKE_CHANNEL_URL: fake.url, CAMPAIGN_POLL_MS: '5000' };
  let runtime: RunningRuntime = await spawnLocalRuntime(env, dataDir);
  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const answer = await fetch(`${runtime.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const sent = async () => ((await (await fetch(`${fake.url}/sent`)).json()) as Sent[]).filter((s) => s.message.text.startsWith('Oferta'));
  try {
    const registered = await call<{ accessToken: string }>('POST', '/auth/register', {
      name: 'Bench',
      email: `bench.campaign.${Date.now()}@example.com`,
      password: 'Senha#Forte123',
    });
    const account = await call<{ id: string; accessToken: string }>('POST', '/accounts', { name: 'Loja Bench' }, registered.accessToken);
    const token = account.accessToken;
    const doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    await doc.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: keys.account(account.id),
        UpdateExpression: 'SET #plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 10, connections: connections + 1, contacts: contacts + 1000 } },
      }),
    );
    // WhatsApp numbers under the channel double: connected by writing their status, as the tests do.
    const serviceIds: string[] = [];
    for (let i = 0; i < connections; i++) {
      const service = await call<{ id: string }>('POST', '/services', { name: `Zap ${i + 1}`, type: 'whatsapp' }, token);
      await doc.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: keys.service(account.id, service.id),
          UpdateExpression: 'SET #status = :c',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':c': 'connected' },
        }),
      );
      serviceIds.push(service.id);
    }
    // Customers who wrote before, spread over the numbers (written straight into the table: the seed is not measured).
    const now = new Date().toISOString();
    // Each batch stamped in the contact change index as it is written, as the product's writers do (a stamp
    // older than the directory's overlap when it lands would be missed by a view already loaded).
    const fieldsOf = (i: number) =>
      ({
        id: `01BENCH${String(i).padStart(19, '0')}`,
        accountId: account.id,
        serviceId: serviceIds[i % connections]!,
        name: `Cliente ${i}`,
        contactType: 'user',
        idFromService: `55119${String(i).padStart(8, '0')}@s.whatsapp.net`,
        email: null,
        phoneNumber: `55119${String(i).padStart(8, '0')}`,
        phoneCountry: 'BR',
        gender: null,
        avatarKey: null,
        isOnline: false,
        lastSeenAt: null,
        archivedAt: null,
        archivedReason: null,
        lastMessage: null,
        lastMessageAt: null,
        lastInboundAt: now,
        unread: 0,
        messagesCount: 0,
        createdAt: now,
        updatedAt: now,
      }) satisfies Parameters<typeof contactItem>[0];
    for (let i = 0; i < contacts; i += 25) {
      let requests = Array.from({ length: Math.min(25, contacts - i) }, (_, k) => ({
        PutRequest: { Item: contactItem(fieldsOf(i + k)) as unknown as Record<string, unknown> },
      }));
      // What the table leaves unprocessed (it throttles a burst like this one) is written again.
      while (requests.length > 0) {
        const answer = await doc.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: requests } }));
        requests = (answer.UnprocessedItems?.[runtime.tableName] ?? []) as typeof requests;
        if (requests.length) await new Promise((r) => setTimeout(r, 50));
      }
    }
    const segment = await call<{ id: string; count: number }>('POST', '/segments', { name: 'Todos', where: { archivedAt: null } }, token);
    for (let c = segment.count, polls = 0; c < contacts; c = (await call<{ count: number }>('GET', `/segments/${segment.id}`, undefined, token)).count) {
      if (++polls % 10 === 0) {
        let stored = 0;
        let start: Record<string, unknown> | undefined;
        do {
          const page = await doc.send(
            new QueryCommand({
              TableName: runtime.tableName,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :c)',
              ExpressionAttributeValues: { ':pk': keys.account(account.id).pk, ':c': 'CONTACT#' },
              Select: 'COUNT',
              ExclusiveStartKey: start,
            }),
          );
          stored += page.Count ?? 0;
          start = page.LastEvaluatedKey;
        } while (start);
        console.log(`  the directory sees ${c.toLocaleString('en')} contacts; the table holds ${stored.toLocaleString('en')}`);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    const pid = childPid();
    const rssBefore = memoryMb(pid, 'VmRSS');
    console.log(`${contacts.toLocaleString('en')} contacts on ${connections} numbers; runtime RSS ${rssBefore} MB`);

    const started = performance.now();
    const campaign = await call<Campaign>(
      'POST',
      '/campaigns',
      {
        name: 'Oferta da semana',
        audience: { kind: 'segment', segmentId: segment.id },
        serviceIds,
        message: { text: 'Oferta para {{primeiro_nome}}: 10% de desconto' },
        window: { kind: 'hours', start: '00:00', end: '24:00', weekdays: [0, 1, 2, 3, 4, 5, 6] },
        pace: { minGapSeconds: gapSeconds, maxGapSeconds: gapSeconds, dailyLimit: 10_000, dailyNewChats: 0 },
        optOutHint: false,
      },
      token,
    );
    const answeredMs = performance.now() - started;
    const get = () => call<Campaign>('GET', `/campaigns/${campaign.id}`, undefined, token);
    let current = await get();
    while (current.status === 'preparing') {
      await new Promise((r) => setTimeout(r, 250));
      current = await get();
    }
    const enqueuedMs = performance.now() - started;
    console.log(
      `created in ${Math.round(answeredMs)} ms; ${current.counts.recipients.toLocaleString('en')} recipients enqueued ${(enqueuedMs / 1000).toFixed(1)} s after; RSS ${memoryMb(pid, 'VmRSS')} MB`,
    );

    // Sends until about 40 %, then the runtime is killed and started again on the same data.
    const firstSendAt = Date.now();
    while ((await sent()).length < contacts * 0.4) await new Promise((r) => setTimeout(r, 1000));
    const beforeKill = (await sent()).length;
    const peakBeforeKill = memoryMb(pid, 'VmHWM');
    const killedAt = Date.now();
    await runtime.kill();
    runtime = await spawnLocalRuntime(env, dataDir);
    const restartedMs = Date.now() - killedAt;
    const pid2 = childPid();
    console.log(
      `killed after ${beforeKill.toLocaleString('en')} sends (${((killedAt - firstSendAt) / 1000).toFixed(0)} s); started again in ${(restartedMs / 1000).toFixed(1)} s`,
    );
    current = await get();
    while (current.status !== 'finished') {
      await new Promise((r) => setTimeout(r, 2000));
      current = await get();
    }
    const endedAt = Date.now();
    const sends = await sent();
    const byContact = new Map<string, number>();
    for (const s of sends) byContact.set(s.message.to, (byContact.get(s.message.to) ?? 0) + 1);
    const duplicates = [...byContact.values()].filter((n) => n > 1).length;
    const reached = byContact.size;
    const losses = contacts - current.counts.sent - current.counts.skipped;
    // The pace: the shortest gap between two sends of one number, and sends a second per number while both runtimes ran.
    const byNumber = new Map<string, number[]>();
    for (const s of sends) byNumber.set(s.connection.serviceId, [...(byNumber.get(s.connection.serviceId) ?? []), s.at]);
    let shortestGap = Number.POSITIVE_INFINITY;
    for (const times of byNumber.values()) {
      times.sort((a, b) => a - b);
      for (let i = 1; i < times.length; i++) shortestGap = Math.min(shortestGap, times[i]! - times[i - 1]!);
    }
    const sendingSeconds = (endedAt - firstSendAt - restartedMs) / 1000;
    const perNumberPerMinute = (reached / connections / sendingSeconds) * 60;
    const peak = Math.max(peakBeforeKill, memoryMb(pid2, 'VmHWM'));
    const lines = [
      `${new Date().toISOString()}; ${contacts.toLocaleString('en')} contacts who wrote before, on ${connections} WhatsApp numbers (the HTTP channel double), a segment audience, a gap of ${gapSeconds} s asked per number.`,
      '',
      '| figure | value |',
      '|---|---|',
      `| POST /campaigns answered | ${Math.round(answeredMs)} ms |`,
      `| recipients enqueued (the segment read and ${current.counts.recipients.toLocaleString('en')} recipients written by the poller) | ${(enqueuedMs / 1000).toFixed(1)} s after the request |`,
      `| runtime RSS before / peak (VmHWM, both runs) | ${rssBefore} / ${peak} MB |`,
      `| sends before the kill (SIGKILL) | ${beforeKill.toLocaleString('en')} |`,
      `| runtime started again in | ${(restartedMs / 1000).toFixed(1)} s |`,
      `| contacts reached (channel double) / sent / skipped / failed | ${reached.toLocaleString('en')} / ${current.counts.sent.toLocaleString('en')} / ${current.counts.skipped} / ${current.counts.failed} |`,
      `| duplicates (a contact reached twice) | **${duplicates}** |`,
      `| losses (neither sent nor skipped) | **${losses}** |`,
      `| achieved pace, sends a minute per number (asked: at most ${60 / gapSeconds}) | ${perNumberPerMinute.toFixed(1)} |`,
      `| shortest gap between two sends of one number | ${shortestGap} ms |`,
      `| whole campaign, first send to finished (less the restart) | ${sendingSeconds.toFixed(0)} s |`,
    ];
    console.log(lines.join('\n'));
    const results = join(import.meta.dirname, '..', 'bench', 'results.md');
    const text = readFileSync(results, 'utf8');
    const section = `<!-- bench:campaign -->\n## A campaign to ${contacts.toLocaleString('en')} contacts (\`npm run bench:campaign\`)\n\n${lines.join('\n')}\n<!-- /bench:campaign -->`;
    const marked = /<!-- bench:campaign -->[\s\S]*?<!-- \/bench:campaign -->/;
    writeFileSync(results, marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`);
  } finally {
    await runtime.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

/**
 * `npm run bench`: the inbox core on the local runtime with one account holding 25,000 contacts and
 * 100,000 messages (one conversation of 5,000). Seeds straight into dynalite (not measured), starts
 * the runtime as `npm start` does, then measures over HTTP and a WebSocket client:
 *   contact list page, contact search by name, message page, send, send → message.CREATED delay.
 * Writes bench/results.json and bench/results.md.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueShape, mulberry32, seedInbox } from './bench-data.ts';
import { messageArrivals, openSeedWriter, stats, withSection } from './bench-seed.ts';
import { containsPattern, listQueryString } from '#contracts/list-query.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 25_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const BIG_CONVERSATION = issueShape.bigConversation;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TABLE = 'conversa';

// The runs' own choices (pages, names, contacts), from a stream of their own.
const random = mulberry32(7);
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-bench-'));
  const seedStart = Date.now();
  const { write, close } = await openSeedWriter(dataDir, TABLE);
  const seeded = await seedInbox(write, { ...issueShape, contacts: CONTACTS, messages: MESSAGES });
  await close();
  const seedMs = Date.now() - seedStart;
  console.log(`seeded ${CONTACTS} contacts and ${MESSAGES} messages in ${(seedMs / 1000).toFixed(1)} s`);

  const loadAtStart = loadavg()[0]!.toFixed(2);
  const fake = await startFakeChannel();
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fake.url }, dataDir);
  try {
    const api = async (method: string, path: string, body?: unknown, token?: string) => {
      const t0 = performance.now();
      const res = await fetch(`${runtime.url}/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      const ms = performance.now() - t0;
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
      return { json, ms };
    };
    const { json: session } = await api('POST', '/auth/login', { email: seeded.email, password: seeded.password });
    const token = session.accessToken as string;

    const listQuery = (page: number) =>
      listQueryString({
        where: { archivedAt: null },
        include: ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'],
        order: [['lastMessageAt', 'DESC']],
        page,
        perPage: 20,
      });
    const cold = await api('GET', `/contacts${listQuery(0)}`, undefined, token);
    const results: Record<string, unknown> = { coldDirectoryLoadMs: +cold.ms.toFixed(1), totalContacts: cold.json.totalCount };

    const list: number[] = [];
    for (let i = 0; i < RUNS; i++) list.push((await api('GET', `/contacts${listQuery(Math.floor(random() * 50))}`, undefined, token)).ms);

    const search: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const name = pick(seeded.contacts).name;
      const start = Math.floor(random() * Math.max(1, name.length - 5));
      const text = name.slice(start, start + 3 + Math.floor(random() * 3)).toLowerCase();
      search.push(
        (
          await api(
            'GET',
            `/contacts${listQueryString({ where: { archivedAt: null, or: [{ name: { like: containsPattern(text) } }, { 'data.email': { like: containsPattern(text) } }] }, page: 0, perPage: 20 })}`,
            undefined,
            token,
          )
        ).ms,
      );
    }

    // The team inbox's lists: 'Meus' (open ones) and one department's, 20 a page, and the tab counts.
    const inboxPage = (where: Record<string, unknown>) =>
      `/contacts${listQueryString({ where: { archivedAt: null, ...where }, order: [['lastMessageAt', 'DESC']], page: Math.floor(random() * 5), perPage: 20 })}`;
    const mine: number[] = [];
    const department: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      mine.push((await api('GET', inboxPage({ userId: seeded.ownerId, status: 'open' }), undefined, token)).ms);
      department.push((await api('GET', inboxPage({ departmentId: `D${i % 4}` }), undefined, token)).ms);
      counts.push((await api('GET', `/inbox/counts${listQueryString({ where: { archivedAt: null } })}`, undefined, token)).ms);
    }

    const messagePage: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const contactId = i % 2 ? seeded.bigContactId : pick(seeded.contacts).id;
      const page = i % 2 ? Math.floor(random() * 20) : 0;
      messagePage.push(
        (
          await api(
            'GET',
            `/messages${listQueryString({ where: { contactId }, include: ['file', 'thumbnail', 'user', 'quotedMessage'], page, perPage: 10 })}`,
            undefined,
            token,
          )
        ).ms,
      );
    }
    // 4,000 messages deep in the 5,000 conversation, by cursor as the app pages (page numbers stop at
    // the newest 1,000): the cursor is found by walking 40 pages of 100 first, not measured.
    let oldestShown: string | undefined;
    for (let walked = 0; walked < 40; walked++) {
      const where = { contactId: seeded.bigContactId, ...(oldestShown ? { id: { lt: oldestShown } } : {}) };
      const { json } = await api('GET', `/messages${listQueryString({ where, perPage: 100 })}`, undefined, token);
      oldestShown = (json as { data: { id: string }[] }).data.at(-1)!.id;
    }
    const deepPage = (
      await api('GET', `/messages${listQueryString({ where: { contactId: seeded.bigContactId, id: { lt: oldestShown! } }, perPage: 10 })}`, undefined, token)
    ).ms;

    // Sends, with the delay to message.CREATED at a connected client.
    const { arrivals, close } = await messageArrivals(runtime.url, token);
    const send: number[] = [];
    const eventDelay: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const contact = pick(seeded.contacts);
      const t0 = performance.now();
      const { json, ms } = await api('POST', '/messages/send', { contactId: contact.id, serviceId: seeded.serviceId, text: `Mensagem de teste ${i}` }, token);
      send.push(ms);
      const until = Date.now() + 5000;
      while (!arrivals.has(json.id) && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
      if (arrivals.has(json.id)) eventDelay.push(arrivals.get(json.id)! - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
    close();

    const rss = (() => {
      try {
        const pid = readFileSync(join(dataDir, 'runtime.pid'), 'utf8').trim();
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      } catch {
        return null;
      }
    })();

    Object.assign(results, {
      date: new Date().toISOString(),
      machine: `${(await import('node:os')).cpus().length} cores, node ${process.version}`,
      contacts: CONTACTS,
      messages: MESSAGES,
      seedSeconds: +(seedMs / 1000).toFixed(1),
      contactListPageMs: stats(list),
      contactSearchMs: stats(search),
      messagePageMs: stats(messagePage),
      inboxMineMs: stats(mine),
      inboxDepartmentMs: stats(department),
      inboxCountsMs: stats(counts),
      messagePage400Ms: +deepPage.toFixed(1),
      sendMs: stats(send),
      sendToEventMs: stats(eventDelay),
      eventsReceived: `${eventDelay.length}/${RUNS}`,
      runtimeRssMb: rss === null ? null : +rss.toFixed(0),
      targetsP95Ms: { list: 50, search: 50, messagePage: 50, event: 50 },
    });
    // The previous run's figures, shown beside the new ones so a regression shows.
    type Stats = ReturnType<typeof stats>;
    const before = (existsSync('bench/results.json') ? JSON.parse(readFileSync('bench/results.json', 'utf8')) : {}) as Record<string, Stats | undefined> & {
      date?: string;
    };
    writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
    const row = (label: string, s: Stats, previous: Stats | undefined, target?: number) =>
      `| ${label} | ${previous ? `${previous.p50} / ${previous.p95}` : 'n/a'} | ${s.p50} | ${s.p95} | ${s.max} | ${target ? (s.p95 < target ? `< ${target} ✓` : `< ${target} ✗`) : ''} |`;
    const md = [
      `## Inbox core, one request at a time (\`npm run bench\`)`,
      '',
      `${results.date}, ${results.machine}. ${CONTACTS} contacts, ${MESSAGES} messages (one conversation of ${BIG_CONVERSATION}), ${RUNS} runs each, local runtime over HTTP, one request at a time; load average ${loadAtStart} at the start, ${loadavg()[0]!.toFixed(2)} at the end (2 cores shared with other engineers' runs). Previous run: ${before.date ?? 'none'}.`,
      '',
      '| Operation | previous p50 / p95 ms | p50 ms | p95 ms | max ms | target p95 |',
      '|---|---|---|---|---|---|',
      row('Contact list page (20, by last message)', stats(list), before.contactListPageMs, 50),
      row('Contact search by name or e-mail (like)', stats(search), before.contactSearchMs, 50),
      row('Message page (10, newest first)', stats(messagePage), before.messagePageMs, 50),
      row("Inbox 'Meus', open (20, by last message)", stats(mine), before.inboxMineMs, 50),
      row('Inbox of one department (20, by last message)', stats(department), before.inboxDepartmentMs, 50),
      row('Inbox counts (3 tabs × total and 3 statuses)', stats(counts), before.inboxCountsMs),
      row('Send', stats(send), before.sendMs),
      row('Send → message.CREATED at a WebSocket client', stats(eventDelay), before.sendToEventMs, 50),
      '',
      `Cold contact directory load (first list after start): ${results.coldDirectoryLoadMs} ms (previous ${before.coldDirectoryLoadMs ?? 'n/a'}). Message page 4,000 messages deep in the 5,000-message conversation, by cursor (page numbers stop at the newest 1,000): ${results.messagePage400Ms} ms (previous ${before.messagePage400Ms ?? 'n/a'}). Runtime RSS after the run: ${results.runtimeRssMb ?? 'n/a'} MB (previous ${before.runtimeRssMb ?? 'n/a'}). Seeding (not measured): ${results.seedSeconds} s.`,
    ].join('\n');
    const page = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '# Benchmarks\n';
    writeFileSync('bench/results.md', withSection(page, 'core', md));
    console.log(md);
  } finally {
    await runtime.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

/**
 * `npm run bench`: the inbox core on the local runtime with one account holding 25,000 contacts and
 * 100,000 messages (one conversation of 5,000). Seeds straight into dynalite (not measured), starts
 * the runtime as `npm start` does, then measures over HTTP and a WebSocket client:
 *   contact list page, contact search by name, message page, send, send → message.CREATED delay.
 * Writes bench/results.json and bench/results.md.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import WebSocket from 'ws';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { entityTypes, keys } from '../shared/db/keys.ts';
import { newAccountItem } from '../shared/db/accounts.ts';
import { contactItem, type ContactItem } from '../shared/db/contacts.ts';
import { summaryOf, type MessageItem } from '../shared/db/messages.ts';
import type { ServiceItem } from '../shared/db/services.ts';
import { benchOwnerItems, keptSections, openSeedTable, stats } from './bench-seed.ts';
import { containsPattern, listQueryString } from '../shared/contracts/list-query.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 25_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const BIG_CONVERSATION = 5_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TABLE = 'conversa';

const first = [
  'Ana',
  'João',
  'Maria',
  'José',
  'Francisca',
  'Antônio',
  'Adriana',
  'Carlos',
  'Juliana',
  'Paulo',
  'Márcia',
  'Lucas',
  'Fernanda',
  'Pedro',
  'Patrícia',
  'Gabriel',
  'Aline',
  'Rafael',
  'Camila',
  'Bruno',
  'Letícia',
  'Marcos',
  'Beatriz',
  'Thiago',
  'Larissa',
];
const surnames = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Araújo',
  'Conceição',
  'Moreira',
  'Nascimento',
  'Cardoso',
];
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

async function seedTable(dataDir: string) {
  const { doc, close } = await openSeedTable(dataDir, TABLE);
  const pending: Promise<unknown>[] = [];
  const buffer: Record<string, unknown>[] = [];
  const flush = async (force = false) => {
    while (buffer.length >= 25 || (force && buffer.length)) {
      const items = buffer.splice(0, 25);
      pending.push(doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } })));
      if (pending.length >= 8) await Promise.all(pending.splice(0));
    }
    if (force) await Promise.all(pending.splice(0));
  };
  const put = async (item: Record<string, unknown>) => {
    buffer.push(item);
    if (buffer.length >= 25) await flush();
  };

  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const accountId = ulid();
  const email = 'bench@example.com';
  const password = 'Bench#Senha123';
  await put({
    ...newAccountItem(accountId, 'Loja Benchmark', iso(now)),
    plan: { productName: 'Pro', users: 10, connections: 5, contacts: CONTACTS },
    usersCount: 1,
    servicesCount: 1,
    contactsCount: CONTACTS,
  });
  const ownerItems = await benchOwnerItems(accountId, email, password, iso(now));
  for (const item of ownerItems) await put(item);
  // The team inbox (issue 14): a fifth of the contacts are the owner's, every contact is in one of 4 departments.
  const owner = ownerItems.find((i) => i.type === entityTypes.user) as unknown as { id: string; name: string };
  const serviceId = ulid();
  const service: ServiceItem = {
    ...keys.service(accountId, serviceId),
    type: entityTypes.service,
    id: serviceId,
    accountId,
    name: 'WhatsApp Bench',
    channelType: 'whatsapp',
    status: 'connected',
    statusReason: null,
    qrCode: null,
    tokenSealed: null,
    tokenHint: null,
    createdAt: iso(now),
    updatedAt: iso(now),
  };
  await put(service as unknown as Record<string, unknown>);

  const perContact = Array.from({ length: CONTACTS }, () => 0);
  perContact[0] = BIG_CONVERSATION;
  for (let m = BIG_CONVERSATION; m < MESSAGES; m++) perContact[1 + Math.floor(random() * (CONTACTS - 1))]!++;
  const contacts: { id: string; name: string }[] = [];
  for (let c = 0; c < CONTACTS; c++) {
    const id = ulid(now - 400 * 86_400_000 + c);
    const name = `${pick(first)} ${pick(surnames)} ${pick(surnames)}`;
    const phone = `55${11 + (c % 80)}9${String(10_000_000 + c).slice(-8)}`;
    let last: MessageItem | null = null;
    let at = now - Math.floor(random() * 300 * 86_400_000);
    for (let m = 0; m < perContact[c]!; m++) {
      at += 1000 + Math.floor(random() * 600_000);
      const mid = ulid(at);
      const fromMe = random() < 0.5;
      last = {
        ...keys.message(accountId, id, mid),
        type: entityTypes.message,
        id: mid,
        accountId,
        contactId: id,
        serviceId,
        text: fromMe ? 'Olá! Seu pedido já foi enviado e chega amanhã.' : 'Bom dia, gostaria de saber o status do meu pedido, por favor.',
        messageType: 'text',
        timestamp: iso(at),
        isFromMe: fromMe,
        ack: fromMe ? 3 : 2,
        error: null,
        file: null,
        quotedMessage: null,
        replyMessageId: null,
        replyToChannelMessageId: null,
        user: null,
        groupContact: null,
        channelMessageId: `seed-${mid}`,
        sendAttempt: fromMe ? 1 : 0,
        createdAt: iso(at),
        updatedAt: iso(at),
      };
      await put(last as unknown as Record<string, unknown>);
    }
    const updatedAt = iso(now - 60_000 + (c % 1000));
    const item: ContactItem = contactItem({
      id,
      accountId,
      serviceId,
      name,
      contactType: 'user',
      idFromService: `${phone}@s.whatsapp.net`,
      email: `cliente${c}@exemplo.com.br`,
      phoneNumber: phone,
      phoneCountry: 'BR',
      gender: null,
      avatarKey: null,
      isOnline: false,
      lastSeenAt: null,
      archivedAt: null,
      archivedReason: null,
      lastMessage: last ? summaryOf(last) : null,
      lastMessageAt: last ? last.timestamp : null,
      unread: last && !last.isFromMe ? 1 : 0,
      messagesCount: perContact[c]!,
      userId: c % 5 === 0 ? owner.id : null,
      user: c % 5 === 0 ? { id: owner.id, name: owner.name } : null,
      departmentId: `D${c % 4}`,
      department: { id: `D${c % 4}`, name: `Departamento ${c % 4}` },
      status: c % 3 === 0 ? 'resolved' : 'open',
      createdAt: iso(now - 400 * 86_400_000),
      updatedAt,
    });
    await put(item as unknown as Record<string, unknown>);
    await put({ ...keys.channelContact(accountId, serviceId, item.idFromService), type: entityTypes.channelContact, contactId: id });
    contacts.push({ id, name });
  }
  await flush(true);
  await close();
  return { accountId, serviceId, email, password, contacts, bigContactId: contacts[0]!.id, ownerId: owner.id };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-bench-'));
  const seedStart = Date.now();
  const seeded = await seedTable(dataDir);
  const seedMs = Date.now() - seedStart;
  console.log(`seeded ${CONTACTS} contacts and ${MESSAGES} messages in ${(seedMs / 1000).toFixed(1)} s`);

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
    const deepPage = (await api('GET', `/messages${listQueryString({ where: { contactId: seeded.bigContactId }, page: 400, perPage: 10 })}`, undefined, token))
      .ms;

    // Sends, with the delay to message.CREATED at a connected client.
    const socket = new WebSocket(`${runtime.url.replace('http', 'ws')}/ws?token=${encodeURIComponent(token)}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const arrivals = new Map<string, number>();
    socket.on('message', (data) => {
      const event = JSON.parse(data.toString());
      if (event.event === 'message.CREATED') arrivals.set(event.data.id, performance.now());
    });
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
    socket.close();

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
    writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
    const row = (label: string, s: ReturnType<typeof stats>, target?: number) =>
      `| ${label} | ${s.p50} | ${s.p95} | ${s.max} | ${target ? (s.p95 < target ? `< ${target} ✓` : `< ${target} ✗`) : ''} |`;
    const md = [
      `# Inbox core benchmark`,
      '',
      `${results.date}, ${results.machine}. ${CONTACTS} contacts, ${MESSAGES} messages (one conversation of ${BIG_CONVERSATION}), ${RUNS} runs each, local runtime over HTTP.`,
      '',
      '| Operation | p50 ms | p95 ms | max ms | target p95 |',
      '|---|---|---|---|---|',
      row('Contact list page (20, by last message)', stats(list), 50),
      row('Contact search by name or e-mail (like)', stats(search), 50),
      row('Message page (10, newest first)', stats(messagePage), 50),
      row("Inbox 'Meus', open (20, by last message)", stats(mine), 50),
      row('Inbox of one department (20, by last message)', stats(department), 50),
      row('Inbox counts (3 tabs × total and 3 statuses)', stats(counts)),
      row('Send', stats(send)),
      row('Send → message.CREATED at a WebSocket client', stats(eventDelay), 50),
      '',
      `Cold contact directory load (first list after start): ${results.coldDirectoryLoadMs} ms. Message page 400 of the 5,000-message conversation (skips 4,000): ${results.messagePage400Ms} ms. Runtime RSS after the run: ${results.runtimeRssMb ?? 'n/a'} MB. Seeding (not measured): ${results.seedSeconds} s.`,
      '',
    ].join('\n');
    // Other benchmarks' sections (bench:whatsapp) stay.
    const previous = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '';
    writeFileSync('bench/results.md', md + keptSections(previous));
    console.log(md);
  } finally {
    await runtime.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

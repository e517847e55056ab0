/**
 * `npm run bench:whatsapp`: the WhatsApp channel worker's figures, in this process acting as the
 * worker against the local runtime (its table, bucket and WebSocket gateway, started as the
 * integration tests start it, with the HTTP channel double in the runtime so it holds no session of
 * its own). Sessions are the product's `WhatsAppSession` under the generic worker (leases, real
 * inbound sink, real table-backed auth state) over the Baileys socket double; every connection has
 * real Baileys creds (`initAuthCreds()`) and a realistic set of signal keys written through the
 * table-backed auth state and read back by the session, so its key cache is populated.
 *   1. Memory (RSS, V8 heap used, after `global.gc()`) at 0, 1, 10 and 50 sessions.
 *   2. Inbound `messages.upsert` on the double → `message.CREATED` at a WebSocket client (p50/p95).
 *   3. Send → handed to the socket through the whole path (API → table → stream →
 *      dispatch-outbound → worker queue → worker → pacer → socket), on a second runtime whose own
 *      worker holds 10 sessions on the double (`measureSendPath`, pace 0), one at a time and in
 *      bursts of one per connection; and the adapter's `send` alone, in process.
 * Run with `node --expose-gc --import tsx scripts/bench-whatsapp.ts`. Writes bench/whatsapp.json,
 * bench/whatsapp.md and its summary in bench/results.md (section `bench:whatsapp`). Loopback only; the data folder (OS temp dir) is removed at the end.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ulid } from 'ulid';
import WebSocket from 'ws';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthenticationState, SignalDataSet, WAMessage } from 'baileys';
import { newAccountItem } from '#db/accounts.ts';
import { benchOwnerItems, benchServiceItem, openSeedTable, stats, withSection } from './bench-seed.ts';
import type { ChannelAdapter } from '#domain/channels/port.ts';
import type { Ports } from '#domain/ports.ts';
import type { SocketFactory } from '#connectors/whatsapp/socket.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';
import { realtimeUrl } from '../tests/support/realtime-url.ts';
import { runtimePorts, type RuntimeAddress } from '../tests/support/runtime-ports.ts';
import { WhatsAppControl } from '../tests/support/whatsapp-control.ts';

const STEPS = [1, 10, 50];
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const SENDS = Number(process.env.BENCH_SENDS ?? 200);
/** Send → socket through the API and the worker queue: sends over this many connections. */
const SEND_PATH_CONNECTIONS = 10;
const SEND_PATH_SENDS = Number(process.env.BENCH_SEND_PATH ?? 100);
const PRE_KEYS = 30;
const SESSIONS_PER_CONNECTION = 5;
const TABLE = 'conversa';
const MB = 1024 * 1024;

const gc = (globalThis as { gc?: () => void }).gc;

async function memory() {
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { rssMb: +(m.rss / MB).toFixed(1), heapUsedMb: +(m.heapUsed / MB).toFixed(1), externalMb: +((m.external + m.arrayBuffers) / MB).toFixed(1) };
}

/** Account, owner and 50 WhatsApp connections (stopped), straight into dynalite before the runtime starts. */
async function seedTable(dataDir: string, connections: number) {
  const { doc, close } = await openSeedTable(dataDir, TABLE);
  const now = new Date().toISOString();
  const accountId = ulid();
  const email = 'bench-wa@example.com';
  const password = 'Bench#Senha123';
  const items: Record<string, unknown>[] = [
    {
      ...newAccountItem(accountId, 'Loja Zap Benchmark', now),
      plan: { productName: 'Pro', users: 10, connections, contacts: 25_000 },
      usersCount: 1,
      servicesCount: connections,
    },
    ...(await benchOwnerItems(accountId, email, password, now)),
  ];
  const serviceIds: string[] = [];
  for (let i = 0; i < connections; i++) {
    const id = ulid();
    serviceIds.push(id);
    const service = benchServiceItem(accountId, id, `Zap ${i + 1}`, 'disconnected', now);
    items.push(service as unknown as Record<string, unknown>);
  }
  for (let i = 0; i < items.length; i += 25) {
    await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  await close();
  return { accountId, email, password, serviceIds };
}

/**
 * Writes every connection's auth state through the table-backed auth state, as Baileys would: run
 * in a child process so the seeding's garbage does not stay in the measured worker's RSS.
 * Answers the key ids of one connection (all connections have the same ids).
 */
async function seedAuthState(ports: Ports, accountId: string, serviceIds: string[]): Promise<Record<string, string[]>> {
  const baileys = await import('baileys');
  const { loadAuthState } = await import('../connectors/whatsapp/auth-state.ts');
  const keyIds: Record<string, string[]> = {};
  const pad = (n: number) => randomBytes(n);
  for (const [index, serviceId] of serviceIds.entries()) {
    const auth = await loadAuthState(ports, { accountId, serviceId });
    const phone = `55119${String(10_000_000 + index).slice(-8)}`;
    Object.assign(auth.state.creds, {
      me: { id: `${phone}:7@s.whatsapp.net`, lid: `${100_000_000_000 + index}:7@lid`, name: `Zap ${index + 1}` },
      registered: true,
      platform: 'android',
      nextPreKeyId: PRE_KEYS + 1,
      firstUnuploadedPreKeyId: PRE_KEYS + 1,
      account: { details: pad(80), accountSignatureKey: pad(32), accountSignature: pad(64), deviceSignature: pad(64) },
    });
    const data: SignalDataSet = {
      'pre-key': {},
      session: {},
      'sender-key': {},
      'sender-key-memory': {},
      'app-state-sync-key': {},
      'app-state-sync-version': {},
      'lid-mapping': {},
      'device-list': {},
      tctoken: {},
    };
    for (let k = 1; k <= PRE_KEYS; k++) data['pre-key']![String(k)] = baileys.Curve.generateKeyPair();
    for (let s = 0; s < SESSIONS_PER_CONNECTION; s++) {
      const peer = `55219${String(20_000_000 + s).slice(-8)}`;
      // A libsignal session record as Baileys stores it: a few KB once chains have turned.
      data.session![`${peer}.0`] = pad(2500);
      data['device-list']![peer] = ['0', '12'];
      data['lid-mapping']![peer] = `${200_000_000_000 + s}`;
      data['lid-mapping']![`${200_000_000_000 + s}_reverse`] = peer;
      data.tctoken![`${peer}@s.whatsapp.net`] = { token: pad(40), timestamp: String(Math.floor(Date.now() / 1000)) };
    }
    for (let g = 0; g < 3; g++) {
      const group = `1203630${String(40_000_000 + g)}@g.us`;
      data['sender-key']![`${group}::${phone}::0`] = pad(600);
      data['sender-key-memory']![group] = { [`${phone}:0@s.whatsapp.net`]: true };
    }
    for (let a = 0; a < 2; a++) {
      data['app-state-sync-key']![`AAAAA${a}`] = baileys.proto.Message.AppStateSyncKeyData.fromObject({
        keyData: pad(32),
        fingerprint: { rawId: a, currentIndex: a, deviceIndexes: [0, 1] },
        timestamp: Date.now(),
      });
    }
    for (const name of ['critical_block', 'critical_unblock_low', 'regular_high', 'regular_low', 'regular']) {
      const indexValueMap: Record<string, { valueMac: Uint8Array }> = {};
      for (let v = 0; v < 40; v++) indexValueMap[pad(32).toString('base64')] = { valueMac: pad(32) };
      data['app-state-sync-version']![name] = { version: 40, hash: pad(128), indexValueMap };
    }
    if (!index) for (const [type, values] of Object.entries(data)) keyIds[type] = Object.keys(values ?? {});
    await auth.state.keys.set(data);
    await auth.saveCreds();
  }
  return keyIds;
}

/**
 * Send → handed to the socket through the product's whole path, on a runtime of its own whose
 * worker holds the sessions (tests/support/runtime-with-whatsapp-double.ts: sockets on the double,
 * driven through its control server; pace 0): `POST /messages/send` → table → stream →
 * `dispatch-outbound` → worker queue → worker → pacer → the double's `sendMessage`. The clock
 * starts before the POST in this process and stops when the double is called in the runtime's
 * (both `performance.timeOrigin + performance.now()`, the same wall clock).
 */
async function measureSendPath() {
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-bench-wa-send-'));
  const seeded = await seedTable(dataDir, SEND_PATH_CONNECTIONS);
  const runtime = await spawnLocalRuntime({ WHATSAPP_DOUBLE: '1', WHATSAPP_DOUBLE_PACE_MS: '0' }, dataDir);
  try {
    const control = new WhatsAppControl(runtime.whatsappControlUrl!);
    const login = await fetch(`${runtime.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: seeded.email, password: seeded.password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${runtime.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const until = async (check: () => Promise<boolean>, ms = 30_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    // Each connection started through the API, paired on its double, and given one customer.
    const contacts = await Promise.all(
      seeded.serviceIds.map(async (serviceId, i) => {
        await api('POST', `/services/${serviceId}/start`, {});
        await control.waitFor(serviceId, (socket) => socket.sockets >= 1);
        await control.pair(serviceId, `55119${String(40_000_000 + i).slice(-8)}`, `Zap ${i + 1}`);
        await until(async () => (await api<{ status: string }>('GET', `/services/${serviceId}`)).status === 'connected');
        const contact = await api<{ id: string }>('POST', '/contacts', {
          name: `Cliente ${i + 1}`,
          serviceId,
          data: { phoneNumber: `55319${String(50_000_000 + i).slice(-8)}`, phoneCountry: 'BR' },
        });
        return { serviceId, contactId: contact.id };
      }),
    );
    const sentCount = async (serviceId: string) => (await control.socket(serviceId))!.sent.length;
    const now = () => performance.timeOrigin + performance.now();
    /** One send: the POST's answer time, and the time until the double's `sendMessage` was called. */
    const sendOne = async (i: number, text: string) => {
      const { serviceId, contactId } = contacts[i % contacts.length]!;
      const before = await sentCount(serviceId);
      const start = now();
      await api('POST', '/messages/send', { contactId, serviceId, text });
      const answered = now() - start;
      await until(async () => (await sentCount(serviceId)) > before);
      const handed = (await control.socket(serviceId))!.sent[before]!;
      if (handed.text !== text) throw new Error(`the socket got ${handed.text}, not ${text}`);
      return { answered, handed: handed.at - start };
    };

    // One at a time, round robin over the connections (the first round is a warm-up).
    const sequential = { handed: [] as number[], answered: [] as number[] };
    for (let i = 0; i < SEND_PATH_SENDS + SEND_PATH_CONNECTIONS; i++) {
      const { answered, handed } = await sendOne(i, `Seu pedido ${i} saiu para entrega`);
      if (i < SEND_PATH_CONNECTIONS) continue;
      sequential.answered.push(answered);
      sequential.handed.push(handed);
    }
    // Bursts: one send on every connection at once, round after round.
    const burst = { handed: [] as number[], answered: [] as number[] };
    for (let round = 0; round < SEND_PATH_SENDS / SEND_PATH_CONNECTIONS; round++) {
      const results = await Promise.all(contacts.map((_, i) => sendOne(i, `Rodada ${round}, conexão ${i}: já separamos`)));
      burst.handed.push(...results.map((r) => r.handed));
      burst.answered.push(...results.map((r) => r.answered));
    }
    return {
      connections: SEND_PATH_CONNECTIONS,
      paceMs: 0,
      sequential: { handedToSocket: stats(sequential.handed), postAnswered: stats(sequential.answered) },
      burstOfOnePerConnection: { handedToSocket: stats(burst.handed), postAnswered: stats(burst.answered) },
    };
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!gc) console.warn('global.gc is not exposed: run with `node --expose-gc --import tsx scripts/bench-whatsapp.ts`; memory figures are then noisy');
  const startedAt = new Date().toISOString();
  const loadAtStart = +loadavg()[0]!.toFixed(2);
  const connections = STEPS[STEPS.length - 1]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-bench-wa-'));
  const seeded = await seedTable(dataDir, connections);

  // Before Baileys and the worker are loaded: what the process costs without them.
  const bare = await memory();
  const baileys = await import('baileys');
  const { whatsappWorkerChannel } = await import('../connectors/whatsapp/worker-adapter.ts');
  // The adapter loads its session code at the first session; loaded here, the baseline keeps holding it.
  await import('../connectors/whatsapp/session.ts');
  const { liveConnections } = await import('../connectors/whatsapp/live.ts');
  const { SocketDouble } = await import('../tests/support/whatsapp-double.ts');
  const { startChannelWorker } = await import('../connectors/worker.ts');
  const { channelRegistry } = await import('../shared/domain/channels/registry.ts');
  const { getServiceItem, writeServiceStatus } = await import('../shared/db/services.ts');

  /** The double, keeping the auth state the session gave it and the moment each send reached it. */
  class BenchSocket extends SocketDouble {
    handedAt: number[] = [];
    constructor(readonly auth: AuthenticationState) {
      super();
    }
    override async sendMessage(...args: Parameters<InstanceType<typeof SocketDouble>['sendMessage']>) {
      this.handedAt.push(performance.now());
      return super.sendMessage(...args);
    }
  }

  const fake = await startFakeChannel();
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fake.url }, dataDir);
  let worker: Awaited<ReturnType<typeof startChannelWorker>> | undefined;
  const ws: WebSocket[] = [];
  try {
    const sockets = new Map<string, BenchSocket>();
    const enabled = new Set<string>();
    // One registry of open sockets for every session and the sends; each session's socket is kept by connection.
    const live = liveConnections();
    const whatsapp = whatsappWorkerChannel({ live });
    const adapter: ChannelAdapter = {
      ...whatsapp,
      sessions: {
        ...whatsapp.sessions!,
        wants: (connection) => enabled.has((connection as { id?: string }).id ?? '') && whatsapp.sessions!.wants(connection),
        open(context) {
          const socketFactory: SocketFactory = ({ auth }) => {
            const socket = new BenchSocket(auth);
            sockets.set(context.run.serviceId, socket);
            return socket;
          };
          return whatsappWorkerChannel({ live, socketFactory }).sessions!.open(context);
        },
      },
    };
    const ports: Ports = { ...runtimePorts(runtime), channels: channelRegistry([adapter]) };
    const { accountId } = seeded;

    // Auth state of every connection, written by a child process through the table-backed auth state.
    const t0 = performance.now();
    const seeder = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, NODE_NO_WARNINGS: '1', BENCH_WA_AUTH: JSON.stringify({ runtime, accountId, serviceIds: seeded.serviceIds }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let seederOut = '';
    seeder.stdout.on('data', (chunk: Buffer) => (seederOut += chunk.toString()));
    const seederCode = await new Promise((r) => seeder.once('exit', r));
    if (seederCode !== 0) throw new Error(`the auth state seeding failed (${seederCode})`);
    const keyIds = JSON.parse(seederOut.trim().split('\n').pop()!) as Record<string, string[]>;
    const keysPerConnection = Object.values(keyIds).reduce((n, ids) => n + ids.length, 0);
    const authSeedSeconds = +((performance.now() - t0) / 1000).toFixed(1);
    console.log(`auth state of ${connections} connections written (${keysPerConnection} keys each) in ${authSeedSeconds} s`);

    const statusOf = async (serviceId: string) => (await getServiceItem(ports.table, accountId, serviceId))?.status;
    const eventually = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    /** Starts a connection as the API would, lets the worker open its session, opens the socket and reads every key once (as Baileys would over time), filling the key cache. */
    const bringUp = async (serviceId: string, index: number) => {
      enabled.add(serviceId);
      await writeServiceStatus(
        ports.table,
        { accountId, id: serviceId, channelType: 'whatsapp' },
        { status: 'starting', runId: `bench-${index}`, now: new Date().toISOString() },
      );
      await worker!.run({ kind: 'changed', accountId, serviceId, change: `bench-${index}` }, { receiveCount: 1, enqueuedAt: new Date() });
      await eventually(() => sockets.has(serviceId));
      const socket = sockets.get(serviceId)!;
      const me = socket.auth.creds.me!;
      socket.user = { id: me.id, name: me.name };
      socket.emit('connection.update', { connection: 'open' });
      for (const [type, ids] of Object.entries(keyIds)) await socket.auth.keys.get(type as never, ids);
      await eventually(async () => (await statusOf(serviceId)) === 'connected');
    };

    worker = await startChannelWorker(ports, { workerId: 'bench-whatsapp' });
    const memoryAt: Record<string, Awaited<ReturnType<typeof memory>>> = { '0': await memory() };
    let up = 0;
    for (const step of STEPS) {
      const batch: Promise<void>[] = [];
      for (; up < step; up++) batch.push(bringUp(seeded.serviceIds[up]!, up));
      await Promise.all(batch);
      if (worker.sessions !== step) throw new Error(`the worker holds ${worker.sessions} sessions, expected ${step}`);
      memoryAt[String(step)] = await memory();
      console.log(`${step} sessions:`, memoryAt[String(step)]);
    }
    const base = memoryAt['0']!;
    const top = memoryAt[String(connections)]!;
    const perSession = {
      heapUsedMb: +((top.heapUsedMb - base.heapUsedMb) / connections).toFixed(3),
      rssMb: +((top.rssMb - base.rssMb) / connections).toFixed(3),
      externalMb: +((top.externalMb - base.externalMb) / connections).toFixed(3),
      /** From 1 to 50 sessions: without the one-time costs of the first session (code compiled and paths used once). */
      rssFrom1Mb: +((top.rssMb - memoryAt['1']!.rssMb) / (connections - 1)).toFixed(3),
      heapUsedFrom1Mb: +((top.heapUsedMb - memoryAt['1']!.heapUsedMb) / (connections - 1)).toFixed(3),
    };

    // A WebSocket client of the account.
    const login = await fetch(`${runtime.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: seeded.email, password: seeded.password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const client = new WebSocket(await realtimeUrl(runtime.url, accessToken));
    ws.push(client);
    await new Promise((resolve, reject) => {
      client.once('open', resolve);
      client.once('error', reject);
    });
    const arrivals = new Map<string, number>();
    client.on('message', (raw) => {
      const event = JSON.parse(raw.toString()) as { event: string; data: { text?: string } };
      if (event.event === 'message.CREATED' && event.data.text) arrivals.set(event.data.text, performance.now());
    });

    // Inbound: a customer's message on a connected session → message.CREATED at the client.
    const inbound: number[] = [];
    const run = Date.now().toString(36);
    for (let i = 0; i < MESSAGES + 5; i++) {
      const serviceId = seeded.serviceIds[i % connections]!;
      const text = `Bom dia, o pedido ${run}-${i} já saiu?`;
      const message = baileys.proto.WebMessageInfo.fromObject({
        key: {
          remoteJid: `55319${String(30_000_000 + (i % 40)).slice(-8)}@s.whatsapp.net`,
          fromMe: false,
          id: `3A${run.toUpperCase()}${String(i).padStart(6, '0')}`,
        },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName: `Cliente ${i % 40}`,
        message: { conversation: text },
      }) as WAMessage;
      const start = performance.now();
      sockets.get(serviceId)!.emit('messages.upsert', { type: 'notify', messages: [message] });
      await eventually(() => arrivals.has(text), 10_000);
      // The first five (new contacts, cold paths) are a warm-up.
      if (i >= 5) inbound.push(arrivals.get(text)! - start);
      await new Promise((r) => setTimeout(r, 10));
    }

    // Send, in process: the adapter's send (as the dispatcher calls it) → the double's sendMessage.
    const handed: number[] = [];
    const returned: number[] = [];
    for (let i = 0; i < SENDS + 10; i++) {
      const serviceId = seeded.serviceIds[i % connections]!;
      const socket = sockets.get(serviceId)!;
      const before = socket.handedAt.length;
      const start = performance.now();
      await adapter.send(
        { accountId, serviceId, type: 'whatsapp', token: null },
        {
          messageId: ulid(),
          to: `55319${String(30_000_000 + (i % 40)).slice(-8)}@s.whatsapp.net`,
          type: 'text',
          text: `Já saiu, chega amanhã (${i})`,
          file: null,
          replyTo: null,
        },
      );
      const end = performance.now();
      if (socket.handedAt.length !== before + 1) throw new Error('the send did not reach the socket');
      if (i >= 10) {
        handed.push(socket.handedAt[before]! - start);
        returned.push(end - start);
      }
    }

    const after = await memory();

    // The send path end to end, on a runtime of its own: this one and its worker are done.
    for (const client of ws) client.close();
    await worker.stop();
    worker = undefined;
    await runtime.stop();
    const sendPath = await measureSendPath();

    const results = {
      date: startedAt,
      machine: `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores (shared), ${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Linux ${release()}, node ${process.version}, baileys ${(JSON.parse(readFileSync('node_modules/baileys/package.json', 'utf8')) as { version: string }).version}`,
      gcExposed: Boolean(gc),
      connections,
      keysPerConnection,
      keyTypes: Object.fromEntries(Object.entries(keyIds).map(([type, ids]) => [type, ids.length])),
      authSeedSeconds,
      memoryBeforeBaileysAndWorker: bare,
      memoryBySessions: memoryAt,
      memoryPerSession: perSession,
      memoryAfterMessagesAndSends: after,
      inboundToMessageCreatedMs: stats(inbound),
      sendToSocketInProcessMs: { handedToSocket: stats(handed), sendReturned: stats(returned) },
      sendThroughApiToSocketMs: sendPath,
      loadAverage: { start: loadAtStart, end: +loadavg()[0]!.toFixed(2) },
      targetPerSessionMb: 40,
    };
    writeFileSync('bench/whatsapp.json', `${JSON.stringify(results, null, 2)}\n`);

    const memRow = (n: string) => {
      const m = memoryAt[n]!;
      return `| ${n} | ${m.rssMb} | ${m.heapUsedMb} | ${m.externalMb} |`;
    };
    const row = (label: string, s: ReturnType<typeof stats>) => `| ${label} | ${s.n} | ${s.p50} | ${s.p95} | ${s.max} |`;
    const md = [
      '# WhatsApp channel worker benchmark',
      '',
      `${results.date}, ${results.machine}. \`npm run bench:whatsapp\` (\`scripts/bench-whatsapp.ts\`).`,
      '',
      '## Method',
      '',
      'One process acts as the channel worker: the generic worker (`connectors/worker.ts`, leases in the table) opens the',
      "product's `WhatsAppSession` for each connection, with the real table-backed auth state, the real inbound sink and",
      "the runtime's bucket, against the local runtime started as the integration tests start it (its own process: dynalite",
      'table, S3 bucket, API and WebSocket gateway; its channel adapters are the HTTP double, so it holds no session itself).',
      "Only the Baileys socket is a double (`tests/support/whatsapp-double.ts`, Baileys' own event shapes). Each of the",
      `${connections} connections gets real Baileys creds (\`initAuthCreds()\`, plus a paired account) and ${keysPerConnection} signal keys`,
      `(${Object.entries(results.keyTypes)
        .map(([t, n]) => `${n} ${t}`)
        .join(', ')}; pre-keys are real Curve25519 pairs, sessions 2.5 KB records, app-state versions 40 entries each), written`,
      'through the table-backed auth state (sealed, one record per key) by a child process before the run (so its garbage does',
      "not sit in this process's RSS). Each session loads its creds from the",
      'table, and once its socket opens every key is read once through `keys.get` (as Baileys reads them to encrypt,',
      'decrypt and upload pre-keys), so the key cache (LRU) holds them all. Memory is `process.memoryUsage()` after three `global.gc()` calls',
      `(gc exposed: ${results.gcExposed}).`,
      '',
      '## Memory of the worker process',
      '',
      '| Sessions | RSS MB | V8 heap used MB | external + ArrayBuffers MB |',
      '|---|---|---|---|',
      memRow('0'),
      ...STEPS.map((s) => memRow(String(s))),
      '',
      `Per session (50 sessions minus baseline, divided by 50): **heap ${perSession.heapUsedMb} MB, RSS ${perSession.rssMb} MB**, external ${perSession.externalMb} MB. From 1 to 50 (without the first session's one-time costs: code compiled, paths used once): RSS ${perSession.rssFrom1Mb} MB, heap ${perSession.heapUsedFrom1Mb} MB a session. Target: under 40 MB a session. RSS is coarse at this size (it moves by several MB between runs with no session change, as the allocator and V8 keep or return pages); heap + external is the finer figure, RSS the upper bound.`,
      `The baseline (0 sessions) already has Baileys, the worker, the AWS SDK clients loaded; before loading Baileys and the worker the process had RSS ${bare.rssMb} MB, heap ${bare.heapUsedMb} MB. After the messages and sends below: RSS ${after.rssMb} MB, heap ${after.heapUsedMb} MB.`,
      '',
      '**What the double leaves out of this figure.** The real socket: the WebSocket to WhatsApp and its Noise handshake and',
      "cipher state, Baileys' internal buffers, caches and timers per socket (message retry counters, the user-devices",
      'and signal caches, the keep-alive, the event buffer), the libsignal sessions and group ciphers built while decrypting',
      'traffic, app-state sync (contacts, chats, labels patches after pairing), history sync (off in the product anyway),',
      'and media (downloads and uploads pass through memory). The recent-message LRU (500 per session) is nearly empty here',
      '(at most a few messages per session); full of text messages it adds roughly 1 MB a session, more with media',
      'messages (thumbnails). So this is the floor the adapter itself costs per session, not a real engine figure: a real',
      'Baileys socket is widely reported far heavier, and it has to be measured on paired numbers before sizing the Fargate task.',
      '',
      '## Latency',
      '',
      '| Path | n | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|',
      row(
        `Inbound \`messages.upsert\` on the double → \`message.CREATED\` at a WebSocket client (${connections} sessions live)`,
        results.inboundToMessageCreatedMs,
      ),
      row(
        `Send through the API → the double's \`sendMessage\` called, one at a time (${sendPath.connections} connections, pace 0)`,
        sendPath.sequential.handedToSocket,
      ),
      row('… of which `POST /messages/send` answered', sendPath.sequential.postAnswered),
      row(
        `Send through the API → \`sendMessage\`, bursts of one send on each of the ${sendPath.connections} connections at once`,
        sendPath.burstOfOnePerConnection.handedToSocket,
      ),
      row('… of which `POST /messages/send` answered', sendPath.burstOfOnePerConnection.postAnswered),
      row("Send, in process: adapter's `send` → the double's `sendMessage` called", results.sendToSocketInProcessMs.handedToSocket),
      row("Send, in process: adapter's `send` returned", results.sendToSocketInProcessMs.sendReturned),
      '',
      'Inbound: the double emits one `messages.upsert` (`notify`, a text from a customer, spread over the 50 sessions and 40',
      "customers) and the clock stops when the account's WebSocket client receives the `message.CREATED` with that text;",
      "the path is the session's mapping, the inbound sink's writes to the runtime's table (contact, message), the",
      "runtime's stream emulator and realtime fan-out and the WebSocket gateway. The first 5 messages are a warm-up, not counted.",
      'The runtime (dynalite, stream emulator, gateway) shares the cores with this process, and the machine is shared with',
      `other work: its load average (1 min) was ${results.loadAverage.start} at the start and ${results.loadAverage.end} at the end of this run (${cpus().length} cores).`,
      'Earlier runs on a quieter machine gave inbound p50 33 to 57 ms, p95 50 to 230 ms; read every latency here as an order of magnitude.',
      '',
      'Send through the API: a second runtime (`tests/support/runtime-with-whatsapp-double.ts`, as `npm start` runs but',
      `with its worker's sockets on the double and a loopback control server) holds ${sendPath.connections} paired sessions; each send is`,
      '`POST /messages/send` → the table → the stream emulator → `dispatch-outbound` → the worker queue (the SQS',
      "emulator, FIFO, a group per connection) → the runtime's worker (long poll) → the pacer (set to 0 here; the product",
      "paces 1 s ± 250 ms per connection, which a back-to-back send of one connection waits on top) → the session's live",
      "socket → the double's `sendMessage`. The clock starts before the POST (this process) and stops when the double is",
      "called (the runtime's process), both on the same wall clock (`performance.timeOrigin + now()`, about 1 ms apart at",
      `worst). One at a time: ${SEND_PATH_SENDS} sends round robin over the connections, each waiting for the previous to reach its`,
      `socket (the first ${SEND_PATH_CONNECTIONS} are a warm-up). Bursts: ${SEND_PATH_SENDS / SEND_PATH_CONNECTIONS} rounds of ${SEND_PATH_CONNECTIONS} sends at once, one per connection.`,
      'The "of which" rows are the POST\'s own answer; the rest is the stream, `dispatch-outbound`, the queue and the worker.',
      'Every part of the runtime (API, stream consumers, worker) shares one Node process and its event loop, so in a burst',
      'the ten POSTs mostly wait for one another there; in the cloud they are separate Lambdas and a separate worker task.',
      'The double answers at once; a real `sendMessage` adds its encryption, the WhatsApp round trip and, for a new',
      'recipient, fetching their devices and prekeys (hundreds of ms on a real network), none of which is in these figures.',
      "In process: the adapter's `send` (as the dispatcher calls it, text, no file) → the double's `sendMessage`.",
      '',
    ].join('\n');
    writeFileSync('bench/whatsapp.md', md);
    console.log(md);

    // The issue's figures in bench/results.md, beside the inbox's (bench.ts keeps this section).
    const p = (s: ReturnType<typeof stats>) => `${s.p50} / ${s.p95}`;
    const summary = [
      '## WhatsApp channel worker',
      '',
      `${results.date}, \`npm run bench:whatsapp\` (load average ${results.loadAverage.start} → ${results.loadAverage.end} on ${cpus().length} shared cores: latencies are an order of magnitude). Details, method and what each path covers: [whatsapp.md](whatsapp.md).`,
      "Sessions are the product's `WhatsAppSession` with real Baileys creds and signal keys in the table and a warm key",
      'cache; only the Baileys socket is a double.',
      '',
      '| Sessions held | 0 | 1 | 10 | 50 |',
      '|---|---|---|---|---|',
      `| Worker RSS MB | ${['0', ...STEPS.map(String)].map((n) => memoryAt[n]!.rssMb).join(' | ')} |`,
      `| V8 heap used MB | ${['0', ...STEPS.map(String)].map((n) => memoryAt[n]!.heapUsedMb).join(' | ')} |`,
      '',
      `Per session: heap ${perSession.heapUsedMb} MB, RSS ${perSession.rssMb} MB (target < 40 MB).`,
      '',
      '| Path | n | p50 / p95 ms |',
      '|---|---|---|',
      `| Inbound \`messages.upsert\` → \`message.CREATED\` at a WebSocket client (${connections} sessions) | ${results.inboundToMessageCreatedMs.n} | ${p(results.inboundToMessageCreatedMs)} |`,
      `| Send: \`POST /messages/send\` → worker queue → worker → socket's \`sendMessage\`, one at a time (${sendPath.connections} connections, pace 0) | ${sendPath.sequential.handedToSocket.n} | ${p(sendPath.sequential.handedToSocket)} |`,
      `| Send, same path, bursts of one send per connection at once | ${sendPath.burstOfOnePerConnection.handedToSocket.n} | ${p(sendPath.burstOfOnePerConnection.handedToSocket)} |`,
      '',
      "**What the double leaves out.** Memory: the WebSocket to WhatsApp and its Noise cipher, Baileys' per-socket buffers,",
      'caches and timers, libsignal sessions built from live traffic, app-state and history sync, media in memory: a real',
      "socket costs far more than these figures, which are the adapter's floor. Sends: the pace (1 s ± 250 ms per",
      'connection in the product, 0 here), the encryption and the WhatsApp round trip of a real `sendMessage`, and the',
      'device and prekey lookups of a new recipient. Inbound: decryption and media downloads.',
    ].join('\n');
    writeFileSync('bench/results.md', withSection(readFileSync('bench/results.md', 'utf8'), 'whatsapp', summary));
  } finally {
    for (const client of ws) client.close();
    await worker?.stop().catch((error) => console.error('worker stop failed', error));
    await runtime.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_WA_AUTH) {
  const { runtime, accountId, serviceIds } = JSON.parse(process.env.BENCH_WA_AUTH) as { runtime: RuntimeAddress; accountId: string; serviceIds: string[] };
  console.log(JSON.stringify(await seedAuthState(runtimePorts(runtime), accountId, serviceIds)));
} else {
  await main();
}
process.exit(0);

/**
 * `npm run bench:tenants` (docs/product.md#performance-goals): a thousand accounts on one local
 * runtime. Method and analysis: bench/notes/tenants.md; figures: the `tenants` section of
 * bench/results.md and bench/tenants.json.
 *   1. Seeds straight into dynalite (bench-tenants-seed.ts): BENCH_TENANTS accounts (or
 *      `--scale 0.1` of 1,000), 95 % of 500 contacts, 4.5 % of 5,000, 0.5 % of 50,000.
 *   2. First start: every account signed in and its first contact page asked, without a contact
 *      snapshot (the seed writes none), which writes the snapshot a live account has; then stop.
 *   3. Measured start, with the meters on (BENCH_DYNAMO_METER, BENCH_RUNTIME_METER): a set of active
 *      accounts signed in, three WebSocket clients on each of five of them, then BENCH_USERS virtual
 *      users for BENCH_SECONDS: most requests to the active accounts, a steady stream of accounts
 *      touched for the first time; contact list, search, message page, send (the HTTP channel
 *      double), inbound messages (the domain's receiveMessage against the runtime's table, as the
 *      channel worker calls it).
 * Cold: an account's first contact page in this process (its directory not loaded: read from its
 * snapshot); for the other operations, the account's first of that operation in this process.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { containsPattern, listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { contactSnapshotObjectKey } from '#db/keys.ts';
import { receiveMessage } from '#domain/messages/inbound.ts';
import { spawnLocalRuntime, type RunningRuntime } from '../tests/support/local-runtime.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';
import { realtimeUrl } from '../tests/support/realtime-url.ts';
import { runtimePorts } from '../tests/support/runtime-ports.ts';
import type { MeterTotals } from '../infra/local/emulators/capacity-meter.ts';
import { mulberry32 } from './bench-data.ts';
import { openSeedWriter, stats, withSection } from './bench-seed.ts';
import { sampleMemory, summarise } from './bench-tenants-memory.ts';
import { benchPassword, seedTenants, tenantMix, type SeededTenant, type TenantSize } from './bench-tenants-seed.ts';

const scaleArg = process.argv.indexOf('--scale');
const TENANTS = Math.max(
  3,
  Math.round(process.env.BENCH_TENANTS ? Number(process.env.BENCH_TENANTS) : scaleArg > 0 ? 1000 * Number(process.argv[scaleArg + 1]) : 1000),
);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = Number(process.env.BENCH_USERS ?? 4);
const ACTIVE = Math.max(5, Math.round(TENANTS * 0.05));
const SOCKET_TENANTS = 5;
const SOCKETS_PER_TENANT = 3;
const TABLE = 'conversa';
/** The API function's memory in the cloud (infra/constructs/node-function.ts) and the directory's budget in it, 35 % (directory-memory.ts). */
const FUNCTION_MB = 512;
const BUDGET_MB = Number(process.env.BENCH_DIRECTORY_BUDGET_MB ?? Math.floor(FUNCTION_MB * 0.35));

type Operation = 'contactList' | 'search' | 'messagePage' | 'send' | 'inbound';
const operations: Operation[] = ['contactList', 'search', 'messagePage', 'send', 'inbound'];
/** Of the requests to accounts already touched. */
const weights: Record<Operation, number> = { contactList: 0.35, search: 0.2, messagePage: 0.25, send: 0.1, inbound: 0.1 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const random = mulberry32(7);
/** This run's mark in the channel ids it makes up: a kept data folder holds the previous runs' (same generator, same ids). */
const runId = Date.now().toString(36);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

/** An HTTP call to the runtime from `from` (a loopback address of the account's own, so the per-address budgets see one client each). */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
async function call(
  base: URL,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; from: string },
): Promise<{ status: number; body: any; ms: number }> {
  try {
    return await callOnce(base, method, path, options);
  } catch (error) {
    // A kept-alive connection the server closed as it was reused: asked again on a new one, as a browser does.
    if ((error as { reused?: boolean }).reused) return callOnce(base, method, path, options);
    throw error;
  }
}

function callOnce(
  base: URL,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; from: string },
): Promise<{ status: number; body: any; ms: number }> {
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        localAddress: options.from,
        headers: {
          ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          'accept-encoding': 'identity',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started;
          const raw = Buffer.concat(chunks).toString('utf8');
          let body: unknown = raw;
          try {
            body = raw ? JSON.parse(raw) : undefined;
          } catch {}
          resolve({ status: res.statusCode ?? 0, body, ms });
        });
      },
    );
    req.on('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket && (error as { code?: string }).code === 'ECONNRESET' })));
    req.end(text);
  });
}

const inboxIncludes = ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'];
const surnames = ['silva', 'santos', 'oliveira', 'souza', 'lima', 'costa'];
const pathOf = (path: string, query: ListQueryInput) => `/api${path}${listQueryString(query)}`;

interface Tenant {
  seeded: SeededTenant;
  from: string;
  token?: string;
  /** Operations done on it in this process. */
  seen: Set<Operation>;
}

/** Each account's own loopback address: 127.a.b.c from its index. */
const addressOf = (index: number) => `127.${10 + Math.floor(index / 62_500)}.${1 + (Math.floor(index / 250) % 250)}.${1 + (index % 250)}`;

async function signIn(base: URL, t: Tenant, samples: number[]): Promise<void> {
  const answer = await call(base, 'POST', '/api/auth/login', { body: { email: t.seeded.email, password: benchPassword }, from: t.from });
  if (answer.status !== 200) throw new Error(`sign-in of ${t.seeded.email}: ${answer.status} ${JSON.stringify(answer.body)}`);
  samples.push(answer.ms);
  t.token = answer.body.accessToken as string;
}

const contactListPath = (page = 0) =>
  pathOf('/contacts', { where: {}, include: ['service', 'avatar'], order: [['name', 'ASC']], page, perPage: 20, withCount: true });

/** Where the contact snapshot of an account lies in the runtime's bucket folder. */
const snapshotFile = (dataDir: string, accountId: string) => join(dataDir, 's3', 'conversa-media', `${contactSnapshotObjectKey(accountId)}._S3rver_object`);

/** First start: every account's first contact page without a snapshot (which writes it), `USERS` at a time. */
async function firstStart(dataDir: string, fakeUrl: string, tenants: SeededTenant[]): Promise<Record<TenantSize, number[]>> {
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fakeUrl }, dataDir);
  const base = new URL(runtime.url);
  const bySize: Record<TenantSize, number[]> = { small: [], medium: [], large: [] };
  try {
    // The large accounts one at a time, beside the others: four 50,000-contact reads at once in the
    // runtime's one thread took one past the API function's 30 s (a 500), which no container meets
    // in the cloud, where each runs in its own.
    const large = tenants.filter((s) => s.size === 'large');
    const rest = tenants.filter((s) => s.size !== 'large');
    const lanes = [large, ...Array.from({ length: Math.max(1, USERS - 1) }, () => rest)];
    await Promise.all(
      lanes.map(async (queue) => {
        for (let s = queue.shift(); s; s = queue.shift()) {
          const t: Tenant = { seeded: s, from: addressOf(s.index), seen: new Set() };
          await signIn(base, t, []);
          const page = await call(base, 'GET', contactListPath(), { token: t.token, from: t.from });
          if (page.status !== 200 || page.body.totalCount !== s.contacts)
            throw new Error(`first contact page of ${s.email}: ${page.status} ${page.body?.totalCount}`);
          bySize[s.size].push(page.ms);
        }
      }),
    );
    for (let i = 0; i < 600 && tenants.some((s) => !existsSync(snapshotFile(dataDir, s.accountId))); i++) await sleep(100);
    const missing = tenants.filter((s) => !existsSync(snapshotFile(dataDir, s.accountId))).length;
    if (missing) throw new Error(`${missing} accounts have no contact snapshot after their first contact page`);
  } finally {
    await runtime.stop();
  }
  return bySize;
}

async function readMeter<T>(file: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`no meter at ${file}`);
}

type RuntimeMeter = {
  heapUsed: number;
  ws: { posts: number; bytes: number };
  directory: { accounts: number; estimatedBytes: number; budgetBytes: number; evictions: number; loaded: string[] };
  /** The thread's event loop: utilisation since start, and the delay a callback met in the last second. */
  eventLoop?: { idleMs: number; activeMs: number; delayP99Ms: number; delayMaxMs: number };
};
type DynamoMeter = MeterTotals & { heapUsed: number };

const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys({ ...a, ...b }).map((k) => [k, +((b[k] ?? 0) - (a[k] ?? 0)).toFixed(1)]));
const sum = (r: Record<string, number>) =>
  +Object.values(r)
    .reduce((a, b) => a + b, 0)
    .toFixed(1);

async function measuredRun(dataDir: string, fakeUrl: string, seeded: SeededTenant[]) {
  const runtimeMeterFile = join(dataDir, 'runtime-meter.json');
  const dynamoMeterFile = join(dataDir, 'dynamo-meter.json');
  rmSync(runtimeMeterFile, { force: true });
  rmSync(dynamoMeterFile, { force: true });
  const pidFile = join(dataDir, 'runtime.pid');
  rmSync(pidFile, { force: true });
  const runtime: RunningRuntime = await spawnLocalRuntime(
    {
      FAKE_CHANNEL_URL: fakeUrl,
      BENCH_RUNTIME_METER: runtimeMeterFile,
      BENCH_DYNAMO_METER: dynamoMeterFile,
      // The directory's budget as in one API function, so the accounts' views are evicted as they would be there.
      CONTACT_DIRECTORY_BUDGET_MB: String(BUDGET_MB),
    },
    dataDir,
  );
  const base = new URL(runtime.url);
  for (let i = 0; i < 100 && !existsSync(pidFile); i++) await sleep(20);
  let pid = 0;
  for (let i = 0; i < 100 && !pid; i++) {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (!pid) await sleep(20);
  }
  const memory = sampleMemory(pid, runtimeMeterFile, dynamoMeterFile);
  const sockets: WebSocket[] = [];
  try {
    const ports = runtimePorts(runtime);
    const tenants = seeded.map((s): Tenant => ({ seeded: s, from: addressOf(s.index), seen: new Set() }));
    // The active accounts: every large and a share of the medium ones among them, the rest small, at random.
    const order = [...tenants].sort(() => random() - 0.5);
    const active = [
      ...order.filter((t) => t.seeded.size === 'large'),
      ...order.filter((t) => t.seeded.size === 'medium').slice(0, Math.max(1, Math.round(ACTIVE * 0.1))),
    ];
    for (const t of order) if (active.length < ACTIVE && !active.includes(t)) active.push(t);
    const untouched = order.filter((t) => !active.includes(t));
    const signIns: number[] = [];
    // BENCH_SIGN_IN_FIRST=1 (a diagnosis): every account signed in before the clock, so no password hash runs during it.
    // The active accounts' sign-ins, alone on the meter, give what one sign-in costs in DynamoDB:
    // the cost model takes the sign-ins in the run out of the per-message figures with it.
    await sleep(1500);
    const beforeSignIns = await readMeter<DynamoMeter>(dynamoMeterFile);
    const signedInFirst = process.env.BENCH_SIGN_IN_FIRST === '1' ? tenants : active;
    for (const t of signedInFirst) await signIn(base, t, signIns);
    await sleep(1500);
    const afterSignIns = await readMeter<DynamoMeter>(dynamoMeterFile);
    const signInUnits = {
      signIns: signedInFirst.length,
      calls: sum(diff(beforeSignIns.calls, afterSignIns.calls)),
      readUnits: sum(diff(beforeSignIns.readUnits, afterSignIns.readUnits)),
      writeUnits: sum(diff(beforeSignIns.writeUnits, afterSignIns.writeUnits)),
    };
    // A few browsers' worth of WebSocket clients: three on each of five active accounts.
    const received = { events: 0, byEvent: {} as Record<string, number> };
    const socketTenants = new Set(active.slice(0, SOCKET_TENANTS));
    for (const t of socketTenants) {
      for (let i = 0; i < SOCKETS_PER_TENANT; i++) {
        const socket = new WebSocket(await realtimeUrl(runtime.url, t.token!));
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        socket.on('message', (data) => {
          const { event } = JSON.parse(data.toString()) as { event: string };
          received.events++;
          received.byEvent[event] = (received.byEvent[event] ?? 0) + 1;
        });
        sockets.push(socket);
      }
    }
    await sleep(1500);
    const meterStart = { runtime: await readMeter<RuntimeMeter>(runtimeMeterFile), dynamo: await readMeter<DynamoMeter>(dynamoMeterFile) };
    // The accounts whose directory is loaded, as the runtime last wrote them (every second): an
    // account seen loaded and now absent was evicted, and its next contact page or search is cold.
    let loaded = new Set<string>();
    const everLoaded = new Set<string>();
    const directoryPeak = { accounts: 0, estimatedBytes: 0 };
    // Each second's worst event-loop delays (p99 and max), once per meter write.
    const delaySeconds = new Map<number, { p99: number; max: number }>();
    const watchDirectory = setInterval(() => {
      try {
        const { directory, eventLoop, at } = JSON.parse(readFileSync(runtimeMeterFile, 'utf8')) as RuntimeMeter & { at: number };
        if (eventLoop) delaySeconds.set(at, { p99: eventLoop.delayP99Ms, max: eventLoop.delayMaxMs });
        loaded = new Set(directory.loaded);
        for (const id of loaded) everLoaded.add(id);
        directoryPeak.accounts = Math.max(directoryPeak.accounts, directory.accounts);
        directoryPeak.estimatedBytes = Math.max(directoryPeak.estimatedBytes, directory.estimatedBytes);
      } catch {}
    }, 500);
    const coldBy = { first: 0, evicted: 0 };
    const receivedAtStart = received.events;

    const samples = new Map<string, number[]>();
    const errors: Record<string, number> = {};
    const record = (op: string, cold: boolean, ms: number) => {
      const key = `${op}|${cold ? 'cold' : 'warm'}`;
      samples.set(key, [...(samples.get(key) ?? []), ms]);
    };
    const coldContactListBySize: Record<TenantSize, number[]> = { small: [], medium: [], large: [] };
    const messages = { all: 0, onSocketTenants: 0 };
    let requests = 0;
    const touched: Tenant[] = [];
    // Every account touched by 60 % of the run, so its last part shows whether memory levels off.
    const coldIntervalMs = Math.max(100, (0.6 * SECONDS * 1000) / Math.max(1, untouched.length));
    let nextColdAt = performance.now();
    const deadline = performance.now() + SECONDS * 1000;

    const run = async (t: Tenant, op: Operation): Promise<void> => {
      const evicted = (op === 'contactList' || op === 'search') && t.seen.has(op) && everLoaded.has(t.seeded.accountId) && !loaded.has(t.seeded.accountId);
      const cold = !t.seen.has(op) || evicted;
      if (op === 'contactList' && cold) coldBy[evicted ? 'evicted' : 'first']++;
      const s = t.seeded;
      let ok = true;
      let ms = 0;
      if (op === 'inbound') {
        const contact = pick(s.sample);
        const started = performance.now();
        const stored = await receiveMessage(
          ports,
          { accountId: s.accountId, serviceId: s.serviceId },
          {
            channelMessageId: `bench-in-${runId}-${s.index}-${requests}-${Math.floor(random() * 1e9)}`,
            chat: { idFromService: contact.jid, name: 'Cliente', isGroup: false, phoneNumber: contact.jid.split('@')[0]! },
            isFromMe: false,
            type: 'text',
            text: 'Oi, alguma novidade do meu pedido?',
            timestamp: new Date().toISOString(),
          },
        );
        ms = performance.now() - started;
        ok = Boolean(stored);
      } else {
        let answer: { status: number; body: any; ms: number };
        if (op === 'contactList') answer = await call(base, 'GET', contactListPath(cold ? 0 : Math.floor(random() * 3)), { token: t.token, from: t.from });
        else if (op === 'search') {
          const like = containsPattern(pick(surnames));
          answer = await call(
            base,
            'GET',
            pathOf('/contacts', {
              where: { or: [{ name: { like } }, { 'data.email': { like } }], archivedAt: null },
              include: inboxIncludes,
              page: 0,
              perPage: 20,
              withCount: true,
            }),
            { token: t.token, from: t.from },
          );
        } else if (op === 'messagePage') {
          const contactId = random() < 0.3 ? s.bigContactId : pick(s.sample).id;
          answer = await call(
            base,
            'GET',
            pathOf('/messages', {
              where: { contactId },
              include: ['file', 'thumbnail', 'user', 'quotedMessage'],
              order: [['timestamp', 'DESC']],
              perPage: 20,
              withCount: true,
            }),
            { token: t.token, from: t.from },
          );
        } else {
          answer = await call(base, 'POST', '/api/messages/send', {
            token: t.token,
            from: t.from,
            body: { contactId: pick(s.sample).id, serviceId: s.serviceId, text: `Mensagem ${requests}` },
          });
        }
        ms = answer.ms;
        ok = answer.status >= 200 && answer.status < 300;
        if (!ok && (errors[`${op} ${answer.status}`] ?? 0) < 1) console.error(op, answer.status, JSON.stringify(answer.body).slice(0, 300));
        if (ok && op === 'contactList' && cold) coldContactListBySize[s.size].push(ms);
      }
      requests++;
      if (!ok) {
        errors[`${op}`] = (errors[op] ?? 0) + 1;
        return;
      }
      t.seen.add(op);
      record(op, cold, ms);
      if (op === 'send' || op === 'inbound') {
        messages.all++;
        if (socketTenants.has(t)) messages.onSocketTenants++;
      }
    };

    const user = async () => {
      while (performance.now() < deadline) {
        let t: Tenant;
        const fresh = active.find((a) => !a.seen.size && !touched.includes(a));
        if (fresh) t = fresh;
        else if (untouched.length && performance.now() >= nextColdAt) {
          nextColdAt += coldIntervalMs;
          t = untouched.shift()!;
          if (!t.token) await signIn(base, t, signIns);
        } else t = random() < 0.9 || touched.length === active.length ? pick(active) : pick(touched);
        if (!touched.includes(t)) {
          touched.push(t);
          // A tenant touched for the first time opens on its contacts, as the web app does.
          await run(t, 'contactList');
          continue;
        }
        const r = random();
        let cumulative = 0;
        const op =
          operations.find((o) => {
            cumulative += weights[o];
            return r < cumulative;
          }) ?? 'contactList';
        await run(t, op);
      }
    };
    const loadAtStart = loadavg()[0]!;
    await Promise.all(Array.from({ length: USERS }, user));
    // The stream's consumers and the fan-out finish what the last writes started.
    await sleep(3000);
    clearInterval(watchDirectory);
    const meterEnd = { runtime: await readMeter<RuntimeMeter>(runtimeMeterFile), dynamo: await readMeter<DynamoMeter>(dynamoMeterFile) };
    memory.stop();
    const calls = diff(meterStart.dynamo.calls, meterEnd.dynamo.calls);
    const reads = diff(meterStart.dynamo.readUnits, meterEnd.dynamo.readUnits);
    const writes = diff(meterStart.dynamo.writeUnits, meterEnd.dynamo.writeUnits);
    const posts = meterEnd.runtime.ws.posts - meterStart.runtime.ws.posts;
    return {
      loadAverage: [+loadAtStart.toFixed(2), +loadavg()[0]!.toFixed(2)],
      tenantsTouched: touched.length,
      active: active.length,
      requests,
      errors,
      signIn: stats(signIns.slice(signedInFirst.length)),
      signInUnits,
      operations: Object.fromEntries(
        operations.map((op) => {
          const warm = samples.get(`${op}|warm`) ?? [];
          const cold = samples.get(`${op}|cold`) ?? [];
          return [op, { warm: warm.length ? stats(warm) : null, cold: cold.length ? stats(cold) : null }];
        }),
      ) as Record<Operation, { warm: ReturnType<typeof stats> | null; cold: ReturnType<typeof stats> | null }>,
      coldContactListBySize: Object.fromEntries(Object.entries(coldContactListBySize).map(([k, v]) => [k, v.length ? stats(v) : null])),
      dynamo: {
        calls,
        readUnits: reads,
        writeUnits: writes,
        totals: { calls: sum(calls), readUnits: sum(reads), writeUnits: sum(writes) },
        indexWriteUnits: +(meterEnd.dynamo.indexWriteUnits - meterStart.dynamo.indexWriteUnits).toFixed(1),
        filteredReads: meterEnd.dynamo.filteredReads - meterStart.dynamo.filteredReads,
        failedConditions: meterEnd.dynamo.failedConditions - meterStart.dynamo.failedConditions,
      },
      webSocket: {
        clients: sockets.length,
        onTenants: socketTenants.size,
        posts,
        postBytes: meterEnd.runtime.ws.bytes - meterStart.runtime.ws.bytes,
        messages: messages.all,
        messagesOnSocketTenants: messages.onSocketTenants,
        received: received.events - receivedAtStart,
        receivedByEvent: received.byEvent,
      },
      directory: { ...meterEnd.runtime.directory, loaded: undefined, peak: directoryPeak, coldContactPages: coldBy },
      eventLoop: eventLoopFigures(meterStart.runtime.eventLoop, meterEnd.runtime.eventLoop, [...delaySeconds.values()]),
      memory: Object.fromEntries([...memory.series].map(([name, series]) => [name, summarise(series)])),
    };
  } finally {
    memory.stop();
    for (const socket of sockets) socket.close();
    await runtime.stop();
  }
}

type Measured = Awaited<ReturnType<typeof measuredRun>>;

/**
 * The runtime thread's share of the run spent running callbacks (its event loop's utilisation
 * between the meter at the start and at the end), and the seconds' event-loop delays: p99 and max
 * of each second, summarised over the run (what any request waited behind).
 */
function eventLoopFigures(start: RuntimeMeter['eventLoop'], end: RuntimeMeter['eventLoop'], seconds: { p99: number; max: number }[]) {
  if (!start || !end || !seconds.length) return null;
  const active = end.activeMs - start.activeMs;
  const idle = end.idleMs - start.idleMs;
  return {
    utilisation: +(active / (active + idle)).toFixed(3),
    secondsP99Ms: stats(seconds.map((s) => s.p99)),
    secondsMaxMs: stats(seconds.map((s) => s.max)),
  };
}

interface Results {
  date: string;
  machine: string;
  tenants: number;
  mix: Record<TenantSize, number>;
  contacts: number;
  items: number;
  seedSeconds: number;
  seconds: number;
  users: number;
  firstStart: Record<TenantSize, number[]> | null;
  run: Measured;
}

function report(r: Results): string {
  const f = (s: { p50: number; p95: number; n: number } | null | undefined) => (s ? `${s.p50} / **${s.p95}** (${s.n})` : 'n/a');
  const m = r.run;
  const labels: Record<Operation, string> = {
    contactList: 'contact list (20, by name)',
    search: 'search a surname (20, inbox includes)',
    messagePage: 'message page (20)',
    send: 'send (through the channel double)',
    inbound: 'inbound message (receiveMessage)',
  };
  const list = m.coldContactListBySize as Record<TenantSize, { p95: number } | null>;
  const goalCold = list.medium ? `${list.medium.p95} ms ${list.medium.p95 < 400 ? '✓' : '✗'}` : 'no medium account touched cold';
  const warmList = m.operations.contactList.warm;
  const mainHeapPeak = m.memory['runtime main thread heap used']?.peak ?? Number.NaN;
  const mem = Object.entries(m.memory).map(
    ([name, s]) => `| ${name} | ${s.start} | ${s.peak} | ${s.end} | ${s.growing ? '**still growing**' : 'levels off'} |`,
  );
  const ops = Object.keys({ ...m.dynamo.calls, ...m.dynamo.readUnits, ...m.dynamo.writeUnits }).sort();
  const perMessage = m.webSocket.messagesOnSocketTenants ? (m.webSocket.received / m.webSocket.messagesOnSocketTenants).toFixed(1) : 'n/a';
  return [
    `### ${r.tenants.toLocaleString('en')} accounts`,
    '',
    `${r.date}; ${r.machine}. **${r.tenants} accounts** (${r.mix.small} × 500 contacts, ${r.mix.medium} × 5,000, ${r.mix.large} × 50,000: ${r.contacts.toLocaleString('en')} contacts, ${r.items.toLocaleString('en')} items, seeded in ${r.seedSeconds} s, not measured). ${r.users} virtual users for ${r.seconds} s, ${m.requests.toLocaleString('en')} requests over ${m.tenantsTouched} accounts (${m.active} active, the rest touched once each in a steady stream); load average ${m.loadAverage[0]} at the start, ${m.loadAverage[1]} at the end. Method: bench/notes/tenants.md.`,
    '',
    '| operation | warm p50 / p95 ms (n) | cold p50 / p95 ms (n) |',
    '|---|---|---|',
    ...operations.map((op) => `| ${labels[op]} | ${f(m.operations[op].warm)} | ${f(m.operations[op].cold)} |`),
    `| sign-in | ${f(m.signIn)} | |`,
    '',
    `Cold contact list (the account's first in this process, from its snapshot) by size: 500 contacts ${f(m.coldContactListBySize.small)}, 5,000 ${f(m.coldContactListBySize.medium)}, 50,000 ${f(m.coldContactListBySize.large)}.` +
      (r.firstStart
        ? ` Without a snapshot (the first start, which writes it): 500 ${f(r.firstStart.small.length ? stats(r.firstStart.small) : null)}, 5,000 ${f(r.firstStart.medium.length ? stats(r.firstStart.medium) : null)}, 50,000 ${f(r.firstStart.large.length ? stats(r.firstStart.large) : null)}.`
        : ''),
    `Errors: ${Object.keys(m.errors).length ? JSON.stringify(m.errors) : 'none'}.`,
    '',
    `Goals: cold first contact page p95 at 5,000 contacts < 400 ms: ${goalCold}; warm contact list p95 < 50 ms: ${warmList ? `${warmList.p95} ms ${warmList.p95 < 50 ? '✓' : '✗'}` : 'n/a'}; no process growing without bound: ${Object.values(m.memory).some((s) => s.growing) ? '✗ (see below)' : '✓'}.`,
    '',
    `DynamoDB during the run (every call the local front served: the API's, the stream consumers', the queue consumers' and the inbound calls'; units as DynamoDB on demand would bill them from item sizes): **${m.dynamo.totals.calls.toLocaleString('en')} calls, ${m.dynamo.totals.readUnits.toLocaleString('en')} read units, ${m.dynamo.totals.writeUnits.toLocaleString('en')} write units** (${m.dynamo.indexWriteUnits.toLocaleString('en')} of them the two indexes'), ${(m.dynamo.totals.calls / m.requests).toFixed(1)} calls, ${(m.dynamo.totals.readUnits / m.requests).toFixed(1)} read and ${(m.dynamo.totals.writeUnits / m.requests).toFixed(1)} write units a request. ${m.dynamo.filteredReads} Query/Scan calls had a filter or projection (their read units are a floor); ${m.dynamo.failedConditions} item writes were refused on a condition.`,
    '',
    '| DynamoDB operation | calls | read units | write units |',
    '|---|---|---|---|',
    ...ops
      .filter((op) => m.dynamo.calls[op] || m.dynamo.readUnits[op] || m.dynamo.writeUnits[op])
      .map((op) => `| ${op} | ${m.dynamo.calls[op] ?? 0} | ${m.dynamo.readUnits[op] ?? 0} | ${m.dynamo.writeUnits[op] ?? 0} |`),
    '',
    `WebSocket: ${m.webSocket.clients} clients on ${m.webSocket.onTenants} accounts; the gateway posted ${m.webSocket.posts} times (${Math.round(m.webSocket.postBytes / 1024)} KB) for ${m.webSocket.messages} messages (sends and inbound) across all accounts, ${m.webSocket.messagesOnSocketTenants} of them on the accounts with clients: **${perMessage} posts per message** there (${(m.webSocket.received / Math.max(1, m.webSocket.messagesOnSocketTenants) / SOCKETS_PER_TENANT).toFixed(1)} per message per client; received by event: ${JSON.stringify(m.webSocket.receivedByEvent)}).`,
    '',
    ...(m.eventLoop
      ? [
          `The runtime's thread ran callbacks **${(m.eventLoop.utilisation * 100).toFixed(0)} %** of the run (its event loop's utilisation); a callback's delay, each second's p99: median ${m.eventLoop.secondsP99Ms.p50} ms, p95 ${m.eventLoop.secondsP99Ms.p95} ms; each second's max: median ${m.eventLoop.secondsMaxMs.p50} ms, p95 ${m.eventLoop.secondsMaxMs.p95} ms (what any request waited behind).`,
          '',
        ]
      : []),
    `Contact directory (budget ${(m.directory.budgetBytes / 2 ** 20).toFixed(0)} MB, 35 % of the ${FUNCTION_MB} MB API function, as there): at most ${m.directory.peak.accounts} accounts and ${(m.directory.peak.estimatedBytes / 2 ** 20).toFixed(1)} MB estimated, at the end ${m.directory.accounts} accounts, ${(m.directory.estimatedBytes / 2 ** 20).toFixed(1)} MB, ${m.directory.evictions} evictions over the run; cold contact pages: ${m.directory.coldContactPages.first} first in the process, ${m.directory.coldContactPages.evicted} after an eviction. The runtime's main thread (every handler, the directory included) peaked at ${mainHeapPeak} MB of heap used, against 60 % of the function's memory, ${0.6 * FUNCTION_MB} MB: ${mainHeapPeak < 0.6 * FUNCTION_MB ? '✓' : '✗'}.`,
    '',
    '| memory, sampled every second (MB) | start | peak | end | over the run (the last fifth against the one before) |',
    '|---|---|---|---|---|',
    ...mem,
  ].join('\n');
}

async function main() {
  // 40 minutes unless BENCH_WATCHDOG_MINUTES says more: 1,000 accounts seed for 30 to 60 minutes on 2 cores.
  const watchdogMinutes = Number(process.env.BENCH_WATCHDOG_MINUTES) || 40;
  const watchdog = setTimeout(() => {
    console.error(`bench:tenants took over ${watchdogMinutes} minutes: stopping`);
    process.exit(1);
  }, watchdogMinutes * 60_000);
  watchdog.unref();
  const mix = tenantMix(TENANTS);
  console.log(`bench:tenants: ${TENANTS} accounts (${mix.small} small, ${mix.medium} medium, ${mix.large} large), ${USERS} users for ${SECONDS} s`);
  const keptDir = process.env.BENCH_DATA_DIR;
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'conversa-bench-tenants-'));
  const seedFile = join(dataDir, 'tenants.json');
  let seeded: { tenants: SeededTenant[]; items: number; seedSeconds: number; snapshots: boolean };
  if (keptDir && existsSync(seedFile)) seeded = JSON.parse(readFileSync(seedFile, 'utf8'));
  else {
    mkdirSync(dataDir, { recursive: true });
    const started = performance.now();
    const { write, close } = await openSeedWriter(dataDir, TABLE);
    let items = 0;
    const tenants = await seedTenants((batch) => {
      items += batch.length;
      return write(batch);
    }, TENANTS);
    await close();
    seeded = { tenants, items, seedSeconds: +((performance.now() - started) / 1000).toFixed(1), snapshots: false };
    writeFileSync(seedFile, JSON.stringify(seeded));
  }
  if (seeded.tenants.length !== TENANTS) throw new Error(`the kept data folder holds ${seeded.tenants.length} accounts, not ${TENANTS}`);
  console.log(`seeded ${seeded.items.toLocaleString('en')} items in ${seeded.seedSeconds} s`);
  const fake = await startFakeChannel();
  try {
    let firstStartFigures: Record<TenantSize, number[]> | null = null;
    if (!seeded.snapshots) {
      const started = performance.now();
      firstStartFigures = await firstStart(dataDir, fake.url, seeded.tenants);
      seeded.snapshots = true;
      writeFileSync(seedFile, JSON.stringify(seeded));
      console.log(`first start (every account's snapshot written) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const run = await measuredRun(dataDir, fake.url, seeded.tenants);
    const results = {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, node ${process.version}`,
      tenants: TENANTS,
      mix,
      contacts: seeded.tenants.reduce((n, t) => n + t.contacts, 0),
      items: seeded.items,
      seedSeconds: seeded.seedSeconds,
      seconds: SECONDS,
      users: USERS,
      firstStart: firstStartFigures,
      run,
    };
    console.log(JSON.stringify(run, null, 2));
    if (process.env.BENCH_WRITE === '0') return;
    writeFileSync(`bench/tenants-${TENANTS}.json`, `${JSON.stringify(results, null, 2)}\n`);
    // The section holds the last run at each scale (bench/tenants-<accounts>.json), smallest first.
    const runs = readdirSync('bench')
      .filter((f) => /^tenants-\d+\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(join('bench', f), 'utf8')) as Results)
      .sort((a, b) => a.tenants - b.tenants);
    const md = ['## A thousand tenants (`npm run bench:tenants`)', ...runs.map(report)].join('\n\n');
    const page = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '# Benchmarks\n';
    writeFileSync('bench/results.md', withSection(page, 'tenants', md));
    console.log(report(results));
  } finally {
    await fake.close();
    agent.destroy();
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

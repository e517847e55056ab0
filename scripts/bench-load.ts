/**
 * `npm run bench:load` (docs/product.md#performance-goals): the local runtime under concurrent load, on the benchmarks' data (docs/product.md#performance-goals)
 * (25,000 contacts, each a conversation, 100,000 messages, one conversation of 5,000).
 *   1. Seeds straight into dynalite (bench-data.ts), then starts the runtime as the other benchmarks
 *      do (the HTTP channel double in place of the channels, so sends succeed). A seed written
 *      around the runtime leaves no contact snapshot in the bucket, where a live account has the
 *      one its `contact-snapshots` consumer keeps; so a first start times the first contact page
 *      of an account without a snapshot (every contact item read), checks its answer and that the
 *      runtime then wrote the snapshot itself (the consumer's builder, `refreshContactSnapshot`),
 *      and stops. The measured start is the second: a cold start to the first contact page from
 *      that snapshot, as every cold start of a live account is (steady state).
 *   2. autocannon, 10 connections for 20 s each (BENCH_SECONDS), on loopback: the contact list, the
 *      search 'silva', a message page of the 5,000 conversation and the inbox list, each as the web
 *      app asks for it; then the four at once with sends, a WebSocket client timing each send to its
 *      `message.CREATED`.
 *   3. Samples the runtime's RSS throughout: idle (after the first page and a quiet spell), peak, after.
 * Writes bench/load.json and its section of bench/results.md, the previous run's figures and the
 * issue's (Whaticket's and the Conversa it measured) beside the new ones.
 * `BENCH_ONLY=memory` (memory work, with BENCH_DATA_DIR and a short BENCH_SECONDS): the same run,
 * printing the RSS figures only and writing nothing. `BENCH_ONLY=mixed` (A/B runs of the send path):
 * the mixed workload alone, no quiet spells, printing its figures and writing nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { containsPattern, listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { contactSnapshotObjectKey } from '#db/keys.ts';
import { fold } from '#domain/list-query.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';
import { issueShape, seedInbox, type SeededInbox } from './bench-data.ts';
import { messageArrivals, openSeedWriter, withSection } from './bench-seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 10;
const TABLE = 'conversa';
const ONLY_MIXED = process.env.BENCH_ONLY === 'mixed';
const QUIET_MS = ONLY_MIXED ? 1000 : 10_000;

type Operation = 'contactList' | 'search' | 'messagePage' | 'inboxList';

/** The issue's figures (10 connections, 20 s, same data, this machine): the baseline columns. */
const issueFigures: Record<Operation, { label: string; whaticket: [number, number]; before: [number, number]; goal: { rps: number; p95: number } }> = {
  contactList: { label: 'contact list (20)', whaticket: [89, 152], before: [377, 39], goal: { rps: 4 * 89, p95: 152 / 4 } },
  search: { label: "search 'silva' (20)", whaticket: [70, 197], before: [74, 169], goal: { rps: 280, p95: 50 } },
  messagePage: { label: 'message page of the 5,000 conversation (20)', whaticket: [41, 306], before: [174, 75], goal: { rps: 4 * 41, p95: 60 } },
  inboxList: { label: 'inbox list, last message first (40, with its includes)', whaticket: [50, 252], before: [136, 116], goal: { rps: 200, p95: 60 } },
};
const issueMemory = { whaticket: { idle: 340, peak: 405, after: 393 }, before: { idle: 417, peak: 758, after: 620 }, goal: { idle: 250, peak: 350 } };
const issueColdStart = { whaticket: 1300, before: 7400 };

/** The queries as the web app sends them (web/src/features/.../api), with the issue's page sizes. */
function queries(bigContactId: string): Record<Operation, ListQueryInput & { path: string }> {
  // web/src/features/inbox/api/get-inbox-contacts.ts: inboxContactIncludes, inboxContactsWhere.
  const inboxIncludes = ['service', 'lastMessage', 'avatar', 'user', 'department', 'tags'];
  const silva = containsPattern('silva');
  return {
    // web/src/features/contacts/api/get-contacts.ts: contactsQuery with no filter.
    contactList: { path: '/contacts', where: {}, include: ['service', 'avatar'], order: [['name', 'ASC']], page: 0, perPage: 20, withCount: true },
    search: {
      path: '/contacts',
      where: { or: [{ name: { like: silva } }, { 'data.email': { like: silva } }], archivedAt: null },
      include: inboxIncludes,
      page: 0,
      perPage: 20,
      withCount: true,
    },
    // web/src/features/inbox/api/get-messages.ts: getMessages(contactId, null) of a one-to-one chat.
    messagePage: {
      path: '/messages',
      where: { contactId: bigContactId },
      include: ['file', 'thumbnail', 'user', 'quotedMessage'],
      order: [['timestamp', 'DESC']],
      perPage: 20,
      withCount: true,
    },
    inboxList: { path: '/contacts', where: { archivedAt: null }, include: inboxIncludes, page: 0, perPage: 40, withCount: true },
  };
}

const pathOf = ({ path, ...query }: ListQueryInput & { path: string }) => `/api${path}${listQueryString(query)}`;

/** p50, p95, p99 and max of timings, in ms with one decimal. */
function percentiles(samples: number[]) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => +(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN).toFixed(1);
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: at(100) };
}

interface LoadFigures {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  requests: number;
}

/** autocannon on loopback for SECONDS: requests per second answered 2xx, latency percentiles, and errors (non-2xx, failed, timed out). */
function load(url: string, token: string, paths: string[]): Promise<LoadFigures> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 10,
        headers: { authorization: `Bearer ${token}` },
        requests: paths.map((path) => ({ method: 'GET', path })),
      },
      (error, result) => {
        if (error) return reject(error);
        const p = percentiles(latencies);
        resolve({
          rps: Math.round(result['2xx'] / result.duration),
          p50: p.p50,
          p95: p.p95,
          p99: p.p99,
          errors: result.non2xx + result.errors + result.timeouts,
          requests: latencies.length,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  // Bounded in time whatever happens: the runs take about 3 minutes plus seeding.
  const watchdog = setTimeout(() => {
    console.error('bench:load took over 15 minutes: stopping');
    process.exit(1);
  }, 15 * 60_000);
  watchdog.unref();
  // BENCH_DATA_DIR: seed there once and reuse it (memory work); otherwise a fresh folder, removed after.
  const keptDir = process.env.BENCH_DATA_DIR;
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'conversa-bench-load-'));
  const seedFile = join(dataDir, 'seeded.json');
  const seedStart = performance.now();
  let seeded: SeededInbox;
  if (keptDir && existsSync(seedFile)) seeded = JSON.parse(readFileSync(seedFile, 'utf8')) as SeededInbox;
  else {
    mkdirSync(dataDir, { recursive: true });
    const { write, close } = await openSeedWriter(dataDir, TABLE);
    seeded = await seedInbox(write, issueShape);
    await close();
    writeFileSync(seedFile, JSON.stringify(seeded));
  }
  const seedSeconds = +((performance.now() - seedStart) / 1000).toFixed(1);
  console.log(`seeded ${issueShape.contacts} contacts and ${issueShape.messages} messages in ${seedSeconds} s`);

  const loadAtStart = loadavg()[0]!;
  const pidFile = join(dataDir, 'runtime.pid');
  const fake = await startFakeChannel();
  const withoutSnapshot = await firstStartWithoutSnapshot(dataDir, seeded, fake.url);
  rmSync(pidFile, { force: true });
  const spawnedAt = performance.now();
  // BENCH_HEAPSNAPSHOT=FILE: a heap snapshot of the runtime's main thread once idle, then stop.
  const snapshotFile = process.env.BENCH_HEAPSNAPSHOT;
  const runtime = await spawnLocalRuntime(
    { FAKE_CHANNEL_URL: fake.url, ...(snapshotFile ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2` } : {}) },
    dataDir,
  );
  const listeningMs = performance.now() - spawnedAt;
  let sampler: NodeJS.Timeout | undefined;
  try {
    // serve() writes its pid just after announcing itself.
    for (let i = 0; i < 100 && !existsSync(pidFile); i++) await sleep(20);
    let pid = Number(readFileSync(pidFile, 'utf8').trim());
    for (let i = 0; i < 100 && !pid; i++) {
      await sleep(20);
      pid = Number(readFileSync(pidFile, 'utf8').trim());
    }
    let peakSampled = 0;
    sampler = setInterval(() => {
      peakSampled = Math.max(peakSampled, memoryOf(pid).rss);
    }, 200);
    const api = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${runtime.url}/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const token = (await api('POST', '/auth/login', { email: seeded.email, password: seeded.password })).accessToken as string;
    const operations = queries(seeded.bigContactId);
    const firstPageAt = performance.now();
    const firstPage = (await (await fetch(`${runtime.url}${pathOf(operations.contactList)}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      totalCount: number;
    };
    const firstPageMs = performance.now() - firstPageAt;
    const coldStartMs = performance.now() - spawnedAt;
    if (firstPage.totalCount !== issueShape.contacts) throw new Error(`the contact list counts ${firstPage.totalCount} contacts`);
    // The inbox list is last message first, as the web app asks it (no order given).
    const inbox = (await (await fetch(`${runtime.url}${pathOf(operations.inboxList)}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { lastMessageAt: string }[];
    };
    if (inbox.data.some((c, i) => i > 0 && c.lastMessageAt > inbox.data[i - 1]!.lastMessageAt)) throw new Error('the inbox list is not last message first');
    console.log(`cold start to the first contact page: ${coldStartMs.toFixed(0)} ms (that page ${firstPageMs.toFixed(0)} ms)`);

    await sleep(QUIET_MS);
    const idle = memoryOf(pid).rss;
    console.log(`idle RSS ${idle} MB`, smapsRollup(pid));
    if (snapshotFile) {
      await heapSnapshot(pid, snapshotFile);
      return;
    }

    const figures = {} as Record<Operation, LoadFigures>;
    for (const operation of Object.keys(operations) as Operation[]) {
      if (ONLY_MIXED) break;
      figures[operation] = await load(runtime.url, token, [pathOf(operations[operation])]);
      console.log(operation, figures[operation]);
    }

    // Mixed: the four reads at 10 connections, and one sender awaiting each send's event at a WebSocket client.
    const { arrivals, close } = await messageArrivals(runtime.url, token);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const sends: number[] = [];
    const events: number[] = [];
    let sendErrors = 0;
    let missed = 0;
    let reading = true;
    const sender = (async () => {
      await sleep(1000);
      for (let i = 0; reading; i++) {
        const contact = seeded.contacts[(i * 7919) % seeded.contacts.length]!;
        const t0 = performance.now();
        try {
          const message = (await api(
            'POST',
            '/messages/send',
            { contactId: contact.id, serviceId: seeded.serviceId, text: `Mensagem de carga ${i}` },
            token,
          )) as {
            id: string;
          };
          sends.push(performance.now() - t0);
          const until = performance.now() + 5000;
          while (!arrivals.has(message.id) && performance.now() < until) await sleep(1);
          if (arrivals.has(message.id)) events.push(arrivals.get(message.id)! - t0);
          else missed++;
        } catch {
          sendErrors++;
        }
        await sleep(100);
      }
    })();
    const mixedReads = await load(runtime.url, token, Object.values(operations).map(pathOf));
    reading = false;
    await sender;
    loopDelay.disable();
    close();
    const mixed = {
      reads: mixedReads,
      send: percentiles(sends),
      sendToEvent: percentiles(events),
      sendErrors,
      eventsMissed: missed,
      benchLoopDelayP99Ms: +(loopDelay.percentile(99) / 1e6).toFixed(1),
    };
    console.log('mixed', mixed);
    if (ONLY_MIXED) {
      console.log(`load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
      return;
    }

    const peak = Math.max(peakSampled, memoryOf(pid).rss);
    const hwm = memoryOf(pid).hwm;
    await sleep(QUIET_MS);
    const after = memoryOf(pid).rss;

    const results = {
      date: new Date().toISOString(),
      machine: {
        cores: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        ramGb: +(totalmem() / 2 ** 30).toFixed(1),
        freeRamGbAtStart: +(freemem() / 2 ** 30).toFixed(1),
        node: process.version,
        loadAverage: [+loadAtStart.toFixed(2), +loadavg()[0]!.toFixed(2)],
      },
      data: { ...issueShape, seedSeconds },
      seconds: SECONDS,
      connections: CONNECTIONS,
      coldStart: {
        toListeningMs: Math.round(listeningMs),
        toFirstContactPageMs: Math.round(coldStartMs),
        firstContactPageMs: Math.round(firstPageMs),
        withoutSnapshot,
      },
      memoryMb: { idle, peak, peakHwm: hwm, after },
      operations: figures,
      mixed,
    };
    if (process.env.BENCH_ONLY === 'memory') {
      console.log('memory (MB)', results.memoryMb, 'seconds per operation', SECONDS);
      return;
    }
    const previous = existsSync('bench/load.json') ? (JSON.parse(readFileSync('bench/load.json', 'utf8')) as typeof results) : null;
    writeFileSync('bench/load.json', `${JSON.stringify(results, null, 2)}\n`);
    const page = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '# Benchmarks\n';
    const md = report(results, previous);
    writeFileSync('bench/results.md', withSection(page, 'load', md));
    console.log(md);
  } finally {
    if (sampler) clearInterval(sampler);
    await runtime.stop();
    await fake.close();
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where s3rver keeps the account's contact snapshot in the runtime's data folder. */
const snapshotFile = (dataDir: string, accountId: string) => join(dataDir, 's3', 'conversa-media', `${contactSnapshotObjectKey(accountId)}._S3rver_object`);

/**
 * The account's first start, when the seed left no contact snapshot: the first contact page read
 * from every contact item, checked, then the snapshot that page wrote. `null` when a kept data
 * folder already holds one (an earlier run wrote it).
 */
async function firstStartWithoutSnapshot(dataDir: string, seeded: SeededInbox, fakeUrl: string): Promise<{ firstContactPageMs: number } | null> {
  if (existsSync(snapshotFile(dataDir, seeded.accountId))) return null;
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fakeUrl }, dataDir);
  try {
    const login = await fetch(`${runtime.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: seeded.email, password: seeded.password }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const started = performance.now();
    const res = await fetch(`${runtime.url}${pathOf(queries(seeded.bigContactId).contactList)}`, { headers: { authorization: `Bearer ${accessToken}` } });
    const page = (await res.json()) as { totalCount: number; data: { name: string }[] };
    const firstContactPageMs = Math.round(performance.now() - started);
    // Name order is by folded name (shared/domain/list-query.ts).
    const first = seeded.contacts.map((c) => fold(c.name)).sort()[0];
    if (page.totalCount !== issueShape.contacts || fold(page.data[0]?.name ?? '') !== first) {
      throw new Error(`without a snapshot, the contact list answered ${page.totalCount} contacts, first ${page.data[0]?.name}`);
    }
    if (!existsSync(snapshotFile(dataDir, seeded.accountId))) throw new Error('the first cold start wrote no contact snapshot');
    console.log(`first contact page without a snapshot: ${firstContactPageMs} ms; the snapshot is written`);
    return { firstContactPageMs };
  } finally {
    await runtime.stop();
  }
}

/** The runtime's memory by kind (anonymous, file-backed) from /proc, in MB. */
function smapsRollup(pid: number): Record<string, number> {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0) / 1024);
  return { rss: kb('Rss'), anonymous: kb('Anonymous'), fileBacked: kb('Rss') - kb('Anonymous') };
}

/** Signals the runtime (started with --heapsnapshot-signal) and moves the snapshot it writes in its folder to `file`. */
async function heapSnapshot(pid: number, file: string): Promise<void> {
  const root = join(import.meta.dirname, '..');
  const before = new Set(readdirSync(root));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await sleep(500);
    const written = readdirSync(root).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    // Node streams the JSON out after building the snapshot: done when it ends with its closing brace and grows no more.
    if (written) {
      const path = join(root, written);
      const size = statSync(path).size;
      await sleep(2000);
      if (size > 0 && statSync(path).size === size && readFileSync(path, 'utf8').trimEnd().endsWith('}')) {
        renameSync(path, file);
        console.log(`heap snapshot: ${file}`);
        return;
      }
    }
  }
  throw new Error('no heap snapshot written');
}

type Results = {
  date: string;
  machine: { cores: number; cpu: string; ramGb: number; node: string; loadAverage: number[] };
  seconds: number;
  data: { seedSeconds: number };
  coldStart: { toListeningMs: number; toFirstContactPageMs: number; firstContactPageMs: number; withoutSnapshot?: { firstContactPageMs: number } | null };
  memoryMb: { idle: number; peak: number; peakHwm: number; after: number };
  operations: Record<Operation, LoadFigures>;
  mixed: {
    reads: LoadFigures;
    send: ReturnType<typeof percentiles>;
    sendToEvent: ReturnType<typeof percentiles>;
    sendErrors: number;
    eventsMissed: number;
    benchLoopDelayP99Ms: number;
  };
};

const mark = (ok: boolean) => (ok ? '✓' : '✗');

function report(r: Results, previous: Results | null): string {
  const was = (f: LoadFigures | undefined) => (f ? `${f.rps}, ${f.p95} ms` : 'n/a');
  const rows = (Object.keys(issueFigures) as Operation[]).map((op) => {
    const issue = issueFigures[op];
    const f = r.operations[op];
    const met = f.rps >= issue.goal.rps && f.p95 < issue.goal.p95 && f.errors === 0;
    return `| ${issue.label} | ${issue.whaticket[0]}, ${issue.whaticket[1]} ms | ${issue.before[0]}, ${issue.before[1]} ms | ${was(previous?.operations[op])} | **${f.rps}** | ${f.p50} | **${f.p95}** | ${f.p99} | ${f.errors} | ≥ ${Math.round(issue.goal.rps)}, < ${+issue.goal.p95.toFixed(1)} ms ${mark(met)} |`;
  });
  const m = r.memoryMb;
  const pm = previous?.memoryMb;
  const e = r.mixed.sendToEvent;
  const pe = previous?.mixed.sendToEvent;
  return [
    '## Under load (`npm run bench:load`)',
    '',
    `${r.date}; ${r.machine.cores} × ${r.machine.cpu}, ${r.machine.ramGb} GB RAM, node ${r.machine.node}; load average ${r.machine.loadAverage[0]} at the start, ${r.machine.loadAverage[1]} at the end.`,
    `Data: ${issueShape.contacts.toLocaleString('en')} contacts (each a conversation), ${issueShape.messages.toLocaleString('en')} messages, one conversation of ${issueShape.bigConversation.toLocaleString('en')} (seeded in ${r.data.seedSeconds} s, not measured).`,
    `autocannon on loopback, ${CONNECTIONS} connections for ${r.seconds} s each, the queries as the web app sends them; the runtime is \`npm start\`'s with the HTTP channel double for the channels. Previous run: ${previous?.date ?? 'none'}.`,
    '',
    '| operation (page size) | Whaticket (issue) req/s, p95 | Conversa in the issue | previous run | req/s | p50 ms | p95 ms | p99 ms | errors | goal |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    `| the four above, mixed, with sends | | | ${was(previous?.mixed.reads)} | **${r.mixed.reads.rps}** | ${r.mixed.reads.p50} | **${r.mixed.reads.p95}** | ${r.mixed.reads.p99} | ${r.mixed.reads.errors} | |`,
    '',
    `Send → \`message.CREATED\` at a WebSocket client while the mixed reads run: p50 ${e.p50}, **p95 ${e.p95}**, p99 ${e.p99} ms over ${e.n} sends (${r.mixed.eventsMissed} events missed, ${r.mixed.sendErrors} send errors; the send's own answer p95 ${r.mixed.send.p95} ms); issue: 52 ms with no other load; previous run p95 ${pe?.p95 ?? 'n/a'} ms; goal < 50 ms ${mark(e.p95 < 50 && r.mixed.eventsMissed === 0)}. The bench process's own event-loop delay p99 meanwhile: ${r.mixed.benchLoopDelayP99Ms} ms.`,
    '',
    '| runtime | Whaticket + MariaDB (issue) | Conversa in the issue | previous run | this run | goal |',
    '|---|---|---|---|---|---|',
    `| RSS idle (after the first page and ${QUIET_MS / 1000} s quiet), MB | ${issueMemory.whaticket.idle} | ${issueMemory.before.idle} | ${pm?.idle ?? 'n/a'} | **${m.idle}** | < ${issueMemory.goal.idle} ${mark(m.idle < issueMemory.goal.idle)} |`,
    `| RSS peak (sampled every 200 ms; VmHWM ${m.peakHwm}), MB | ${issueMemory.whaticket.peak} | ${issueMemory.before.peak} | ${pm?.peak ?? 'n/a'} | **${m.peak}** | < ${issueMemory.goal.peak} ${mark(Math.max(m.peak, m.peakHwm) < issueMemory.goal.peak)} |`,
    `| RSS after (${QUIET_MS / 1000} s after the load), MB | ${issueMemory.whaticket.after} | ${issueMemory.before.after} | ${pm?.after ?? 'n/a'} | **${m.after}** | |`,
    `| cold start to the first contact page, ms | ${issueColdStart.whaticket} | ${issueColdStart.before} | ${previous?.coldStart.toFirstContactPageMs ?? 'n/a'} | **${r.coldStart.toFirstContactPageMs}** | |`,
    `| of which the first contact page itself, ms | | 2,000 to 2,800 | ${previous?.coldStart.firstContactPageMs ?? 'n/a'} | **${r.coldStart.firstContactPageMs}** | < 300 ${mark(r.coldStart.firstContactPageMs < 300)} |`,
    `| first contact page of an account without a snapshot (its first start only), ms | | | ${previous?.coldStart.withoutSnapshot?.firstContactPageMs ?? 'n/a'} | **${r.coldStart.withoutSnapshot?.firstContactPageMs ?? 'n/a'}** | |`,
    '',
    `Cold start counts from spawning the runtime's process (${r.coldStart.toListeningMs} ms to listening) through the login to the contact list's answer, from the contact snapshot the runtime keeps (steady state): the seed is written around the runtime, so a first start, not measured but for its first contact page, read every contact item, checked the answer and wrote the snapshot, as a live account's first cold start does once.`,
  ].join('\n');
}

await main();

/**
 * `npm run bench:web`: Lighthouse 13 (the npm package, driving Debian's chromium; nothing downloaded)
 * on the public pages (/, /login, /pricing) and, signed in to an account with 30 conversations and
 * 1,000 contacts, on /inbox and /contacts; mobile and desktop presets, the median of three runs each.
 * Seeds straight into dynalite (as `npm run bench` does), starts the runtime as `npm start` runs it
 * (web/dist, built again first when a source is newer than it, as `npm test` does; `--build` always
 * builds it), writes bench/web.json and its own section
 * (`bench:web`) at the end of bench/results.md. BENCH_WEB_RUNS=n changes the number of runs,
 * BENCH_WEB_LABEL names the build measured (e.g. "before"), BENCH_WEB_PATHS=/,/login measures only
 * those pages (quick iterations; the results then hold only them), BENCH_WEB_PRESETS=mobile only that
 * preset. BENCH_WEB_REPORTS=dir keeps every run's whole Lighthouse report there (<page>-<preset>-<n>.json,
 * to read the audits' details) and leaves bench/ untouched: a look, not a figure to record.
 * When /inbox is measured, so is a burst of incoming messages on it, as many runs
 * (scripts/measure/measure-inbox-burst.ts: 50 a second for 5 s at a 4x CPU slowdown, the longest task).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { ulid } from 'ulid';
import { newAccountItem } from '#db/accounts.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { summaryOf, type MessageItem } from '#db/messages.ts';
import { startFakeChannel } from '../tests/support/fake-channel.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';
import { ensureWebBuild } from './ensure-deps.mjs';
import { benchContactItem, benchMessageItem, benchOwnerItems, benchServiceItem, openSeedTable, withSection } from './bench-seed.ts';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const LABEL = process.env.BENCH_WEB_LABEL ?? 'current build';
const CONTACTS = 1_000;
const CONVERSATIONS = 30;
const TABLE = 'conversa';
const only = process.env.BENCH_WEB_PATHS?.split(',').map((p) => p.trim());
const measured = (paths: string[]) => (only ? paths.filter((p) => only.includes(p)) : paths);
const publicPaths = measured(['/', '/login', '/pricing']);
const appPaths = measured(['/inbox', '/contacts']);
const presets = (['mobile', 'desktop'] as const).filter((p) => !process.env.BENCH_WEB_PRESETS || process.env.BENCH_WEB_PRESETS.split(',').includes(p));
const reportsDir = process.env.BENCH_WEB_REPORTS;
const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu'];

const firstNames = ['Ana', 'João', 'Maria', 'José', 'Francisca', 'Antônio', 'Adriana', 'Carlos', 'Juliana', 'Paulo', 'Márcia', 'Lucas'];
const surnames = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro'];
const lines = [
  'Bom dia! Gostaria de saber o status do meu pedido, por favor.',
  'Olá! Seu pedido já foi enviado e chega amanhã até as 18h.',
  'Vocês têm esse modelo no tamanho 42?',
  'Temos sim, posso separar um para você?',
  'Perfeito, obrigado pelo atendimento!',
  'Qual o prazo de entrega para Campinas?',
];

/** One account with an owner, a connected WhatsApp connection, 1,000 contacts and 30 conversations. */
async function seed(dataDir: string) {
  const { doc, close } = await openSeedTable(dataDir, TABLE);
  const items: Record<string, unknown>[] = [];
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const accountId = ulid();
  const email = 'bench-web@example.com';
  const password = 'Bench#Senha123';
  items.push({
    ...newAccountItem(accountId, 'Loja Benchmark', iso(now)),
    plan: { productName: 'Pro', users: 10, connections: 5, contacts: 25_000 },
    usersCount: 1,
    servicesCount: 1,
    contactsCount: CONTACTS,
  });
  items.push(...(await benchOwnerItems(accountId, email, password, iso(now))));
  const serviceId = ulid();
  const service = benchServiceItem(accountId, serviceId, 'WhatsApp Loja', 'connected', iso(now));
  items.push(service as unknown as Record<string, unknown>);
  for (let c = 0; c < CONTACTS; c++) {
    const id = ulid(now - 200 * 86_400_000 + c);
    const phone = `55${11 + (c % 80)}9${String(10_000_000 + c * 7919).slice(-8)}`;
    let last: MessageItem | null = null;
    if (c < CONVERSATIONS) {
      let at = now - (c + 1) * 3_600_000;
      for (let m = 0; m < 24; m++) {
        at += 60_000 + ((m * 7 + c) % 13) * 20_000;
        const fromMe = (m + c) % 2 === 1;
        last = benchMessageItem({ accountId, contactId: id, serviceId }, at, lines[(m + c) % lines.length]!, fromMe);
        items.push(last as unknown as Record<string, unknown>);
      }
    }
    const item = benchContactItem({
      id,
      accountId,
      serviceId,
      name: `${firstNames[c % firstNames.length]} ${surnames[Math.floor(c / firstNames.length) % surnames.length]} ${c + 1}`,
      email: `cliente${c + 1}@exemplo.com.br`,
      phoneNumber: phone,
      lastMessage: last ? summaryOf(last) : null,
      lastMessageAt: last ? last.timestamp : null,
      unread: last && !last.isFromMe ? 2 : 0,
      messagesCount: last ? 24 : 0,
      createdAt: iso(now - 200 * 86_400_000),
      updatedAt: iso(now - 60_000 + c),
    });
    items.push(item as unknown as Record<string, unknown>);
    items.push({ ...keys.channelContact(accountId, serviceId, item.idFromService), type: entityTypes.channelContact, contactId: id });
  }
  for (let i = 0; i < items.length; i += 25 * 8) {
    const batches = [];
    for (let j = i; j < Math.min(items.length, i + 25 * 8); j += 25) {
      const chunk = items.slice(j, j + 25);
      batches.push(doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: chunk.map((Item) => ({ PutRequest: { Item } })) } })));
    }
    await Promise.all(batches);
  }
  await close();
  return { email, password };
}

interface Figures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  totalKb: number;
  scriptKb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function audit(url: string, port: number, preset: 'mobile' | 'desktop', run: number): Promise<Figures> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] };
  const result = await lighthouse(url, flags, preset === 'desktop' ? (desktopConfig as Config) : undefined);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (reportsDir) {
    const page = new URL(url).pathname.replaceAll('/', '_') || '_';
    mkdirSync(reportsDir, { recursive: true });
    writeFileSync(join(reportsDir, `${page}-${preset}-${run}.json`), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  // /inbox opens the newest conversation on wide screens (/inbox/<id>); anything else is a redirect.
  const landed = new URL(lhr.finalDisplayedUrl).pathname;
  const asked = new URL(url).pathname;
  if (landed !== asked && !landed.startsWith(`${asked}/`)) throw new Error(`Lighthouse on ${url} ended on ${lhr.finalDisplayedUrl}`);
  const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    totalKb: (lhr.audits['total-byte-weight']?.numericValue ?? 0) / 1000,
    scriptKb: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1000,
  };
}

async function measure(url: string, port: number, preset: 'mobile' | 'desktop'): Promise<Figures> {
  const runs: Figures[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await audit(url, port, preset, i + 1));
  const pick = (key: keyof Figures) => median(runs.map((r) => r[key]));
  return {
    performance: pick('performance'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    totalKb: pick('totalKb'),
    scriptKb: pick('scriptKb'),
  };
}

/** Signs the browser's profile in: the app keeps its session in localStorage (docs/product.md#entities-and-states). */
async function signIn(port: number, origin: string, session: unknown) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate((value) => localStorage.setItem('conversa-auth', JSON.stringify(value)), session);
  await page.close();
  await browser.close();
}

/** The burst's figures of one run (the BURST line of scripts/measure/measure-inbox-burst.ts). */
interface Burst {
  perSecond: number;
  seconds: number;
  slowdown: number;
  longTasks: number;
  longestMs: number;
}

/** One run of the burst script, in a process of its own (its own runtime and browser). */
function burstRun(): Burst {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/measure/measure-inbox-burst.ts'], { encoding: 'utf8', timeout: 300_000 });
  const line = out.split('\n').find((l) => l.startsWith('BURST '));
  if (!line) throw new Error(`the burst script printed no figures:\n${out}`);
  return JSON.parse(line.slice('BURST '.length)) as Burst;
}

async function main() {
  if (process.argv.includes('--build')) execFileSync('npm', ['run', 'build:web'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // A stale build would measure code that is no longer there (it once did, for a whole session's work).
  else ensureWebBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'conversa-bench-web-'));
  const account = await seed(dataDir);
  const fake = await startFakeChannel();
  const runtime = await spawnLocalRuntime({ FAKE_CHANNEL_URL: fake.url }, dataDir);
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags });
  const load = loadavg()[0]!.toFixed(2);
  const rows: { path: string; preset: 'mobile' | 'desktop'; figures: Figures }[] = [];
  try {
    const login = await fetch(`${runtime.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const session = (await login.json()) as { accessToken: string; user: unknown };
    for (const path of publicPaths) {
      for (const preset of presets) {
        rows.push({ path, preset, figures: await measure(`${runtime.url}${path}`, chrome.port, preset) });
        console.log(path, preset, `load ${loadavg()[0]!.toFixed(2)}`, rows.at(-1)!.figures);
      }
    }
    // Lighthouse clears the cache before each run but not localStorage (its default clearStorageTypes).
    await signIn(chrome.port, runtime.url, { accessToken: session.accessToken, user: session.user });
    for (const path of appPaths) {
      for (const preset of presets) {
        rows.push({ path, preset, figures: await measure(`${runtime.url}${path}`, chrome.port, preset) });
        console.log(path, preset, `load ${loadavg()[0]!.toFixed(2)}`, rows.at(-1)!.figures);
      }
    }
  } finally {
    chrome.kill();
    await runtime.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (reportsDir) return console.log(`Reports in ${reportsDir}; bench/ left as it was. Load average ${load} at the start.`);
  const bursts = appPaths.includes('/inbox') ? Array.from({ length: RUNS }, () => burstRun()) : [];
  if (bursts.length) console.log('burst', bursts);
  const date = new Date().toISOString();
  const previousJson = existsSync('bench/web.json') ? (JSON.parse(readFileSync('bench/web.json', 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(
    'bench/web.json',
    `${JSON.stringify({ ...previousJson, [LABEL]: { date, runs: RUNS, rows, ...(bursts.length ? { bursts } : {}) } }, null, 2)}\n`,
  );

  const fmt = (n: number, digits = 0) => n.toFixed(digits);
  const burstLine = (runs: Burst[]) => {
    const longest = runs.map((b) => b.longestMs).sort((a, b) => a - b);
    const { perSecond, seconds, slowdown } = runs[0]!;
    return `Burst on /inbox (\`scripts/measure/measure-inbox-burst.ts\`: ${perSecond} incoming messages a second for ${seconds} s, at a ${slowdown}x CPU slowdown, 1280 px): longest task median **${longest[Math.floor(longest.length / 2)]} ms** (runs: ${runs.map((b) => `${b.longestMs} ms, ${b.longTasks} over 50 ms`).join('; ')}); goal: none over 100 ms.`;
  };
  const table = (label: string, data: typeof rows, runBursts?: Burst[]) => [
    `### ${label}`,
    '',
    '| page | preset | performance | LCP ms | TBT ms | CLS | accessibility | best practices | transferred KB | of it JS KB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...data.map(
      ({ path, preset, figures: f }) =>
        `| ${path} | ${preset} | ${f.performance} | ${fmt(f.lcpMs)} | ${fmt(f.tbtMs)} | ${fmt(f.cls, 3)} | ${f.accessibility} | ${f.bestPractices} | ${fmt(f.totalKb, 1)} | ${fmt(f.scriptKb, 1)} |`,
    ),
    '',
    ...(runBursts?.length ? [burstLine(runBursts), ''] : []),
  ];
  const all = JSON.parse(readFileSync('bench/web.json', 'utf8')) as Record<string, { date: string; runs: number; rows: typeof rows; bursts?: Burst[] }>;
  const body = [
    '## Web (Lighthouse)',
    '',
    `\`npm run bench:web\`: Lighthouse 13 on Debian's chromium (${chromeFlags.join(' ')}), default mobile preset (simulated 4G, 4x CPU slowdown) and the desktop preset, median of ${RUNS} runs per figure, against the local runtime (\`npm start\`'s server). /inbox and /contacts signed in to an account with ${CONVERSATIONS} conversations and ${CONTACTS.toLocaleString('en')} contacts. Last run ${date}, ${cpus().length} shared cores, load average ${load} at the start: scores vary a few points between runs on this machine. /pricing is not a route of the app (docs/product.md#screens): it is the not-found page under the marketing layout.`,
    '',
    ...Object.entries(all).flatMap(([label, run]) => table(`${label} (${run.date}, median of ${run.runs})`, run.rows, run.bursts)),
  ].join('\n');
  const previous = existsSync('bench/results.md') ? readFileSync('bench/results.md', 'utf8') : '';
  writeFileSync('bench/results.md', withSection(previous, 'web', body));
  console.log(body);
}

await main();

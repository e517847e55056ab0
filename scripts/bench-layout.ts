/**
 * `npm run bench:layout`: the HTTP function layouts of infra/constructs/http-function-groups.ts
 * compared on a user's first minute (ADR-0202).
 *
 * - Cold starts: replays bench/traces/first-minute.json (scripts/record-first-minute.ts) against a
 *   Lambda container model: a request takes an idle warm container of its function or starts a new
 *   one (a cold start, busy for the function's measured init plus the request's recorded time);
 *   concurrent requests need concurrent containers; nothing is warm when the minute starts. A
 *   request that started after another ended waits for it: a cold start's init moves it too.
 * - Init and memory: every function of every layout bundled with esbuild as NodejsFunction bundles
 *   it (infra/constructs/node-function.ts: ESM, minified, source maps, the require banner, the SDK
 *   inside), then loaded in a fresh Node process: the import's time, RSS and heap after it, and
 *   after serving one request without a session (no AWS call is needed to refuse it).
 * - Resources and alarms: counted by the constructs' rules (per function: function, role, policy,
 *   log group, integration; per route: route, Lambda permission), checked against the synthesised
 *   prod template for the layout the stack builds; alarms as infra/constructs/operations.ts makes
 *   them, priced with infra/cost/prices.ts.
 * - Deploy time is not measured (nothing is deployed from here): the resource counts and the
 *   bundles' sizes stand in for it.
 *
 * Writes the `bench:layout` section of bench/results.md. BENCH_LAYOUT_RUNS (default 3) loads of
 * each bundle of the grouped layouts (one for the per-handler layout's bundles); the median is kept.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { httpRoutes, type HttpRoute } from '#functions/http/routes.ts';
import { API_PREFIX } from '../infra/constructs/http-api.ts';
import {
  functionOf,
  groupEntrySource,
  groupRoutes,
  type HttpLayout,
  httpLayouts,
  stackLayout,
  writeGroupEntry,
} from '../infra/constructs/http-function-groups.ts';
import { maxMetricsPerAlarm } from '../infra/constructs/operations.ts';
import { prices } from '../infra/cost/prices.ts';
import { synthTemplates } from '../infra/cost/synth.ts';
import { withSection } from './bench-seed.ts';
import type { FirstMinuteTrace } from './first-minute-trace.ts';

const root = resolve(import.meta.dirname, '..');
const handlersDir = join(root, 'functions', 'http');
const runs = Number(process.env.BENCH_LAYOUT_RUNS ?? 3);
const exec = promisify(execFile);
const trace = JSON.parse(readFileSync(join(root, 'bench/traces/first-minute.json'), 'utf8')) as FirstMinuteTrace;
const routeByKey = new Map(httpRoutes.map((route) => [`${route.method} ${route.path}`, route]));
const loadStart = loadavg()[0]!.toFixed(2);

// ---- Bundles: as NodejsFunction builds them (infra/constructs/node-function.ts). ----
const work = mkdtempSync(join(tmpdir(), 'bench-layout-'));
const bundled = new Map<string, { file: string; bytes: number }>();
async function bundle(entry: string, name: string): Promise<{ file: string; bytes: number }> {
  const known = bundled.get(entry);
  if (known) return known;
  const outdir = join(work, name.replace(/[^A-Za-z0-9]+/g, '-'));
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const result = { file, bytes: statSync(file).size };
  bundled.set(entry, result);
  return result;
}

// ---- Init and memory in a fresh process. ----
interface Load {
  initMs: number;
  rssMb: number;
  heapMb: number;
  /** After one request; null when the request did not answer in 5 s. */
  servedRssMb: number | null;
  servedHeapMb: number | null;
  status: number | null;
}
const probe = `
const [file, routeKey, rawPath, method] = process.argv.slice(2);
const mb = (n) => Math.round(n / 1048576 * 10) / 10;
const t0 = performance.now();
const mod = await import(file);
const initMs = performance.now() - t0;
const loaded = process.memoryUsage();
const event = { version: '2.0', routeKey, rawPath, rawQueryString: '', headers: {}, isBase64Encoded: false,
  requestContext: { http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'bench' }, requestId: 'bench', routeKey, stage: '$default', timeEpoch: Date.now() } };
const answer = await Promise.race([mod.handler(event, { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10000 }).catch(() => null), new Promise((r) => setTimeout(() => r(null), 5000))]);
const served = process.memoryUsage();
console.log(JSON.stringify({ initMs, rssMb: mb(loaded.rss), heapMb: mb(loaded.heapUsed), servedRssMb: answer ? mb(served.rss) : null, servedHeapMb: answer ? mb(served.heapUsed) : null, status: answer?.statusCode ?? null }));
process.exit(0);
`;
const probeFile = join(work, 'probe.mjs');
writeFileSync(probeFile, probe);
const childEnv = {
  PATH: process.env.PATH,
  NODE_OPTIONS: '--enable-source-maps',
  TABLE_NAME: 'bench',
  BUCKET_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  POWERTOOLS_SERVICE_NAME: 'conversa',
  POWERTOOLS_METRICS_NAMESPACE: 'Conversa',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  POWERTOOLS_DEV: 'false',
};
async function load(file: string, route: HttpRoute, times: number): Promise<Load> {
  const samples: Load[] = [];
  const rawPath = `${API_PREFIX}${route.path.replace(/\{[^}]+\}/g, '01JBENCH0000000000000000')}`;
  for (let i = 0; i < times; i++) {
    const { stdout } = await exec(process.execPath, [probeFile, file, `${route.method} ${API_PREFIX}${route.path}`, rawPath, route.method], {
      env: childEnv,
      timeout: 60_000,
    });
    samples.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as Load);
  }
  return samples.sort((a, b) => a.initMs - b.initMs)[Math.floor(samples.length / 2)]!;
}

// ---- Per layout: its functions, bundles and loads. ----
interface Fn {
  name: string;
  routes: HttpRoute[];
  bytes: number;
  load: Load;
}
const entriesDir = join(work, 'entries');
const layouts = new Map<HttpLayout, Fn[]>();
for (const layout of httpLayouts) {
  const fns: Fn[] = [];
  for (const [name, routes] of groupRoutes(layout, httpRoutes)) {
    const handlers = new Set(routes.map((route) => route.handler));
    // One handler module alone is bundled as itself, as a per-route function is.
    const entry =
      handlers.size === 1
        ? join(handlersDir, `${routes[0]!.handler}.ts`)
        : writeGroupEntry(join(entriesDir, layout), name.replace(/[^A-Za-z0-9]+/g, '-'), groupEntrySource(routes, handlersDir, API_PREFIX));
    const { file, bytes } = await bundle(entry, `${layout}-${name}`);
    // The request served: the route's GET without a session when it has one (a 401), else its first route.
    const route = routes.find((r) => r.method === 'GET' && !r.path.startsWith('/health')) ?? routes[0]!;
    fns.push({ name, routes, bytes, load: await load(file, route, layout === 'per-handler' ? 1 : runs) });
    process.stdout.write('.');
  }
  layouts.set(layout, fns);
  console.log(` ${layout}: ${fns.length} function(s)`);
}
rmSync(work, { recursive: true, force: true });

// ---- The first minute replayed. ----
interface Replay {
  coldStarts: number;
  coldRoutes: string[];
  peakContainers: number;
}
function replay(layout: HttpLayout, fns: Fn[]): Replay {
  const initOf = new Map(fns.map((fn) => [fn.name, fn.load.initMs]));
  const containers = new Map<string, number[]>();
  const coldRoutes: string[] = [];
  // A request that started after another ended is taken to have waited for it (the screen asks on
  // an answer): it moves by that request's delay, so a cold start's init pushes what follows.
  const done: { end: number; delay: number }[] = [];
  for (const request of [...trace.requests].sort((a, b) => a.start - b.start)) {
    const route = request.route ? routeByKey.get(request.route) : undefined;
    if (!route) continue;
    const shift = Math.max(0, ...done.filter((d) => d.end <= request.start).map((d) => d.delay));
    const start = request.start + shift;
    const fn = functionOf(layout, route);
    const busy = containers.get(fn) ?? [];
    containers.set(fn, busy);
    const idle = busy.findIndex((until) => until <= start);
    const init = idle >= 0 ? 0 : (initOf.get(fn) ?? 0);
    const end = request.end + shift + init;
    if (idle >= 0) busy[idle] = end;
    else {
      busy.push(end);
      coldRoutes.push(request.route!);
    }
    done.push({ end: request.end, delay: shift + init });
  }
  return { coldStarts: coldRoutes.length, coldRoutes, peakContainers: Math.max(...[...containers.values()].map((c) => c.length)) };
}

// ---- Resources and alarms. ----
const resourcesOf = (fns: Fn[]) => fns.length * 5 + httpRoutes.length * 2;
const usd = prices['us-east-1'].alarmMetricMonth.usd;
/**
 * As infra/constructs/operations.ts makes them: errors of each function, up to 10 functions an
 * alarm (throttles are one account-wide alarm whatever the layout).
 */
const alarmsOf = (n: number) => ({ alarms: Math.ceil(n / maxMetricsPerAlarm), metrics: n });
const [main] = synthTemplates({ stage: 'prod' });
const ofType = (type: string) => Object.values(main.Resources ?? {}).filter((r) => r.Type === type);
const synthesised = {
  functions: ofType('AWS::Lambda::Function').filter((r) => String(r.Properties?.Description ?? '').startsWith('http/')).length,
  integrations: ofType('AWS::ApiGatewayV2::Integration').filter((r) => r.Properties?.PayloadFormatVersion === '2.0').length,
  routes: ofType('AWS::ApiGatewayV2::Route').filter((r) => /^[A-Z]+ \/api\//.test(String(r.Properties?.RouteKey))).length,
  permissions: ofType('AWS::Lambda::Permission').filter((r) => /\/api\//.test(JSON.stringify(r.Properties?.SourceArn ?? ''))).length,
};

// ---- Report. ----
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const f1 = (n: number) => n.toFixed(1);
const routed = trace.requests.filter((r) => r.route && routeByKey.has(r.route));
const rows = httpLayouts.map((layout) => {
  const fns = layouts.get(layout)!;
  const r = replay(layout, fns);
  const a = alarmsOf(fns.length);
  const init = fns.map((fn) => fn.load.initMs);
  const rss = fns.map((fn) => fn.load.rssMb);
  const served = fns.map((fn) => fn.load.servedRssMb).filter((v): v is number => v !== null);
  const range = (values: number[], digits = (n: number) => f1(n)) =>
    values.length === 1 ? digits(values[0]!) : `${digits(Math.min(...values))} / ${digits(median(values))} / ${digits(Math.max(...values))}`;
  return {
    layout,
    fns,
    replay: r,
    line: `| ${layout} | ${fns.length} | **${r.coldStarts}** | ${r.peakContainers} | ${range(init, (n) => n.toFixed(0))} | ${range(rss)} | ${served.length ? range(served) : 'n/a'} | ${(fns.reduce((n, fn) => n + fn.bytes, 0) / 1048576).toFixed(1)} | ${resourcesOf(fns)} | ${a.alarms} / ${a.metrics} | $${(a.metrics * usd).toFixed(2)} |`,
  };
});
const groupsOf = (layout: HttpLayout) =>
  layouts
    .get(layout)!
    .map(
      (fn) =>
        `\`${fn.name}\` (${fn.routes.length} routes, ${(fn.bytes / 1048576).toFixed(1)} MB, init ${fn.load.initMs.toFixed(0)} ms, RSS ${f1(fn.load.rssMb)} → ${fn.load.servedRssMb === null ? 'n/a' : f1(fn.load.servedRssMb)} MB, status ${fn.load.status ?? 'none'})`,
    )
    .join('; ');
// The layout the stack builds, whose rule the synthesised counts must match.
const built = synthesised.functions === layouts.get(stackLayout)!.length ? stackLayout : undefined;
const body = `## HTTP function layouts (\`npm run bench:layout\`)

${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, node ${process.version}; load average ${loadStart} at the start, ${loadavg()[0]!.toFixed(2)} at the end.
Trace: bench/traces/first-minute.json (${trace.recordedAt}): ${routed.length} API requests in ${Math.max(...routed.map((r) => r.end))} ms (sign-in, inbox, a conversation, a reply, contacts, 'Minha Conta'), replayed against a Lambda container model (scripts/bench-layout.ts: a request takes an idle container of its function or starts one; nothing warm at the start; a request after another waits for it).
Init is the bundle's import in a fresh Node process (median of ${runs} for grouped layouts, 1 per per-handler bundle); memory is that process's RSS, after the import and after one request without a session. Ranges are min / median / max over the layout's functions.
Alarms: the HTTP functions' Lambda errors alarms only (10 functions an alarm, metric math billed per metric; the API's 5xx alarm and the account-wide throttles alarm are one each whatever the layout; until 2026-11-27 throttles were per function too, doubling this column), at $${usd} a metric a month (us-east-1).
Deploy time was not measured (nothing is deployed from here): compare the resource counts and bundle sizes instead. Each function is one asset to bundle and upload and about five resources to create or update.

| layout | functions | cold starts in the first minute | most containers of one function | init ms | RSS after import, MB | RSS after one request, MB | bundles, MB | CloudFormation resources (HTTP) | Lambda alarms / metrics | their cost a month |
|---|---:|---:|---:|---|---|---|---:|---:|---|---:|
${rows.map((r) => r.line).join('\n')}

Cold starts met, by route: ${rows.map((r) => `**${r.layout}**: ${r.replay.coldRoutes.join(', ')}`).join('. ')}.

Groups: **by-rights**: ${groupsOf('by-rights')}. **auth-reads-writes**: ${groupsOf('auth-reads-writes')}. **one**: ${groupsOf('one')}.

Checked against the synthesised prod template: ${synthesised.functions} HTTP functions, ${synthesised.integrations} integrations, ${synthesised.routes} routes and ${synthesised.permissions} invoke permissions${built ? `: the ${built} layout, whose rule gives ${layouts.get(built)!.length} functions, ${layouts.get(built)!.length} integrations and ${httpRoutes.length} routes and permissions` : ''}.`;
const page = join(root, 'bench/results.md');
writeFileSync(page, withSection(readFileSync(page, 'utf8'), 'layout', body));
console.log(body);

/**
 * The local runtime's memory under one oversized, unauthenticated request body (`npx tsx
 * scripts/bench-body-cap.ts`): starts the runtime as the tests do (its bundle, a fresh data folder),
 * then sends `BODY_MB` (default 800) MB to `POST /api/auth/login`, first chunked (no
 * Content-Length), then with a Content-Length, 1 MB at a time as fast as the socket takes it, and
 * reports for each the answer, how much of the body the runtime took before it answered or closed,
 * and the runtime's RSS (sampled every 50 ms, and its VmHWM). API Gateway refuses a body over 10 MB
 * (infra/local/emulators/http-gateway.ts); the runtime should stay near its idle size. Prints, writes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';

const BODY_MB = Number(process.env.BODY_MB ?? 800);
const chunk = Buffer.alloc(1024 * 1024, 'a');

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

interface Sent {
  status: number | string;
  writtenMb: number;
  ms: number;
}

/** Writes up to `BODY_MB` MB, honouring back-pressure, until the body is done or the runtime answers or closes. */
function sendBig(url: string, withLength: boolean): Promise<Sent> {
  return new Promise((resolve) => {
    const started = performance.now();
    let written = 0;
    let status: number | string = 'none';
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve({ status, writtenMb: Math.round(written / 1024 / 1024), ms: Math.round(performance.now() - started) });
    };
    const req = request(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(withLength ? { 'content-length': String(BODY_MB * chunk.length) } : {}) },
    });
    req.on('response', (res) => {
      status = res.statusCode ?? 'none';
      res.resume();
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (status === 'none') status = error.code ?? error.message;
      finish();
    });
    req.on('close', () => setTimeout(finish, 50));
    const pump = () => {
      while (!settled && !req.destroyed && written < BODY_MB * chunk.length) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!settled && !req.destroyed) req.end();
    };
    req.flushHeaders();
    pump();
  });
}

async function main() {
  const runtime = await spawnLocalRuntime();
  try {
    // serve() writes its pid just after announcing itself.
    const pidFile = `${runtime.dataDir}/runtime.pid`;
    let pid = 0;
    for (let i = 0; i < 100 && !pid; i++) {
      await new Promise((r) => setTimeout(r, 20));
      pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
    }
    await fetch(`${runtime.url}/api/auth/me`);
    const idle = memoryOf(pid);
    console.log(`idle: RSS ${idle.rss} MB (VmHWM since start ${idle.hwm} MB)`);
    for (const withLength of [false, true]) {
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 50);
      const sent = await sendBig(runtime.url, withLength);
      clearInterval(sampler);
      await new Promise((r) => setTimeout(r, 200));
      const after = memoryOf(pid);
      peak = Math.max(peak, after.rss);
      console.log(
        `${BODY_MB} MB ${withLength ? 'with Content-Length' : 'chunked'}: answer ${sent.status}, ${sent.writtenMb} MB written by the client in ${sent.ms} ms; ` +
          `runtime RSS peak ${peak} MB (sampled), VmHWM ${after.hwm} MB, after ${after.rss} MB`,
      );
    }
  } finally {
    await runtime.stop();
  }
}

await main();

/**
 * The tenant simulation's memory sampler: every second, the RSS of the runtime's process and of
 * every process under it (worker processes, when the runtime starts any), from /proc, and the heaps
 * the runtime's threads write to their meter files (BENCH_RUNTIME_METER, BENCH_DYNAMO_METER).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

interface Series {
  /** Seconds since the sampler started, and the value in MB. */
  points: [number, number][];
}

/** A process's RSS in MB, or undefined when it is gone. */
function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return undefined;
  }
}

/** The processes whose parent chain reaches `root` (the root excluded), with their command's first words. */
function descendants(root: number): { pid: number; name: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: the command may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {}
  }
  const found: { pid: number; name: string }[] = [];
  for (const pid of parents.keys()) {
    let at = parents.get(pid);
    while (at && at !== root && at !== 1) at = parents.get(at);
    if (at === root) {
      const cmd = (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(-1)[0] ?? String(pid);
        } catch {
          return String(pid);
        }
      })();
      found.push({ pid, name: cmd.split('/').slice(-2).join('/') });
    }
  }
  return found;
}

const readJson = (file: string): Record<string, unknown> | undefined => {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** Samples every second until `stop`; `series` by name ('runtime RSS', 'runtime main heap', …). */
export function sampleMemory(runtimePid: number, runtimeMeter: string, dynamoMeter: string) {
  const series = new Map<string, Series>();
  const started = performance.now();
  const add = (name: string, mb: number) => {
    const s = series.get(name) ?? { points: [] };
    series.set(name, s);
    s.points.push([+((performance.now() - started) / 1000).toFixed(1), mb]);
  };
  const sample = () => {
    const rss = rssOf(runtimePid);
    if (rss !== undefined) add('runtime process RSS (main + DynamoDB threads)', rss);
    for (const child of descendants(runtimePid)) {
      const childRss = rssOf(child.pid);
      if (childRss !== undefined) add(`child process ${child.pid} (${child.name}) RSS`, childRss);
    }
    const main = readJson(runtimeMeter);
    if (main) add('runtime main thread heap used', Math.round(Number(main.heapUsed) / 2 ** 20));
    const dynamo = readJson(dynamoMeter);
    if (dynamo) add('DynamoDB thread heap used', Math.round(Number(dynamo.heapUsed) / 2 ** 20));
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    series,
    stop: () => {
      clearInterval(timer);
      sample();
    },
  };
}

/**
 * Start, peak and end of a series, whether it still grows at the end (the last fifth's mean over
 * 5 % above the fifth before, and the peak in the last tenth: the run touches its last new account
 * at 60 %, so the last two fifths see no new account), and the series every five seconds.
 */
export function summarise(series: Series): { start: number; peak: number; end: number; growing: boolean; every5s: number[] } {
  const values = series.points.map(([, v]) => v);
  const n = values.length;
  const mean = (from: number, to: number) => {
    const part = values.slice(Math.floor(from * n), Math.max(Math.floor(from * n) + 1, Math.floor(to * n)));
    return part.reduce((a, b) => a + b, 0) / part.length;
  };
  const peak = Math.max(...values);
  const peakAt = values.lastIndexOf(peak);
  const growing = n >= 10 && mean(0.8, 1) > 1.05 * mean(0.6, 0.8) && peakAt >= Math.floor(0.9 * n);
  return { start: values[0]!, peak, end: values[n - 1]!, growing, every5s: values.filter((_, i) => i % 5 === 0) };
}

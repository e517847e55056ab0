/**
 * `npm run bench:fleet`: the channel worker fleet at scale on this machine. A local runtime (no
 * worker of its own) and FLEET_WORKERS worker processes (`tests/support/fleet-worker-child.ts`: the
 * Fargate entry's loops, a queue of their own, on a light WhatsApp double whose sessions hold no
 * socket) of FLEET_CAPACITY sessions each; FLEET_SESSIONS connections are made running at once
 * (written to the table: their `changed` commands are routed and placed), then:
 *
 * - how long until every session is held, and each process's count (none over its capacity);
 * - one process killed with SIGKILL: how long until its sessions are held by the others (the
 *   leases last 30 s, the scans every 15 s, as in the cloud).
 *
 * Writes the `<!-- bench:fleet -->` section of bench/results.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { defaultPorts } from '#lib/ports.ts';
import { writeServiceStatus } from '#db/services.ts';
import { entityTypes, keys } from '#db/keys.ts';
import { startLocalRuntime } from '../infra/local/runtime/runtime.ts';
import { fleetDouble } from '../tests/support/fleet-double.ts';
import { withSection } from './bench-seed.ts';

const sessions = Number(process.env.FLEET_SESSIONS) || 1500;
const workerCount = Number(process.env.FLEET_WORKERS) || 10;
// Room for every session with one process gone (what the cloud's 70% target leaves for a task's sessions), plus a tenth.
const capacity = Number(process.env.FLEET_CAPACITY) || Math.ceil((sessions / Math.max(1, workerCount - 1)) * 1.1);
const root = new URL('..', import.meta.url).pathname;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
const runtime = await startLocalRuntime({ port: 0, dataDir, quiet: true, worker: false, channels: [fleetDouble({ worker: 'api' }).adapter] });
const ports = defaultPorts();

/** Each process's last reported count. */
const counts = new Map<string, number>();
const children = new Map<string, ChildProcess>();
const startWorker = (workerId: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/support/fleet-worker-child.ts')], {
      env: { ...process.env, FLEET_WORKER_ID: workerId, FLEET_CAPACITY: String(capacity), NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
      cwd: root,
    });
    children.set(workerId, child);
    child.once('exit', (code) => reject(new Error(`${workerId} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const report = JSON.parse(line) as { ready?: string; worker?: string; sessions?: number };
      if (report.ready) resolve();
      if (report.worker && report.sessions !== undefined) counts.set(report.worker, report.sessions);
    });
  });

const waitFor = async (check: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return check();
};
const total = (except?: string) => [...counts].filter(([id]) => id !== except).reduce((sum, [, n]) => sum + n, 0);

const workerIds = Array.from({ length: workerCount }, (_, i) => `bench-${String(i + 1).padStart(2, '0')}`);
const lines: string[] = [];
try {
  for (const id of workerIds) await startWorker(id);
  console.log(`${workerCount} worker processes up (capacity ${capacity} each); making ${sessions} connections run`);

  const now = new Date().toISOString();
  const made = Date.now();
  const makeOne = async (i: number) => {
    const accountId = `BENCHFLEET${String(Math.floor(i / 2)).padStart(6, '0')}`;
    const id = ulid();
    await ports.table.doc.send(
      new PutCommand({
        TableName: ports.table.name,
        Item: {
          ...keys.service(accountId, id),
          type: entityTypes.service,
          id,
          accountId,
          name: `Número ${i + 1}`,
          channelType: 'whatsapp',
          status: 'disconnected',
          statusReason: null,
          tokenSealed: null,
          tokenHint: null,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    await writeServiceStatus(ports.table, { accountId, id, channelType: 'whatsapp' }, { status: 'connected', runId: `run-${i}`, now });
  };
  for (let i = 0; i < sessions; i += 25) await Promise.all(Array.from({ length: Math.min(25, sessions - i) }, (_, k) => makeOne(i + k)));
  const written = Date.now() - made;
  const allHeld = await waitFor(() => total() >= sessions, 300_000);
  const heldAfter = Date.now() - made;
  const spread = workerIds.map((id) => counts.get(id) ?? 0);
  console.log(`held ${total()} of ${sessions} after ${heldAfter} ms (written in ${written} ms): ${spread.join(' ')}`);
  // Let the counts settle (rebalancing lets two go per scan), then read them again.
  await new Promise((resolve) => setTimeout(resolve, 35_000));
  const settled = workerIds.map((id) => counts.get(id) ?? 0);

  const victim = workerIds.reduce((a, b) => ((counts.get(a) ?? 0) >= (counts.get(b) ?? 0) ? a : b));
  const lost = counts.get(victim) ?? 0;
  children.get(victim)!.kill('SIGKILL');
  const killedAt = Date.now();
  counts.delete(victim);
  const resumed = await waitFor(() => total(victim) >= sessions, 180_000);
  const resumedAfter = Date.now() - killedAt;
  const after = workerIds.filter((id) => id !== victim).map((id) => counts.get(id) ?? 0);
  console.log(
    `${victim} (${lost} sessions) killed: ${resumed ? `all held again after ${resumedAfter} ms` : `not all held after ${resumedAfter} ms`}: ${after.join(' ')}`,
  );

  lines.push(
    `Run ${new Date().toISOString().slice(0, 16)}Z on this machine (${availableParallelism()} cores, shared): ${sessions} sessions of a light WhatsApp double (no socket) over ${workerCount} worker processes of capacity ${capacity} (the cloud's 2 GiB task holds 33; these processes hold no sockets, so fewer, larger ones fit here), each with its own queue, leases of 30 s, scans every 15 s.`,
    '',
    '| | |',
    '|---|---|',
    `| connections made running (table writes) | ${written} ms |`,
    `| every session held | ${allHeld ? `${heldAfter} ms after the first write` : `not within 5 min (${total()} held)`} |`,
    `| sessions per process, then | ${spread.join(', ')} |`,
    `| sessions per process, 35 s later | ${settled.join(', ')} (max ${Math.max(...settled)}, capacity ${capacity}) |`,
    `| a process killed (SIGKILL), holding | ${lost} sessions |`,
    `| its sessions held elsewhere again | ${resumed ? `${resumedAfter} ms after the kill` : `not within 3 min (${total(victim)} of ${sessions})`} |`,
    `| sessions per surviving process | ${after.join(', ')} (max ${Math.max(...after)}) |`,
  );
} finally {
  for (const child of children.values()) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (lines.length && !process.env.FLEET_DRY) {
  const page = join(root, 'bench/results.md');
  writeFileSync(page, withSection(readFileSync(page, 'utf8'), 'fleet', ['## Channel worker fleet (`npm run bench:fleet`)', '', ...lines].join('\n')));
  console.log('bench/results.md: bench:fleet section written');
}
process.exit(0);

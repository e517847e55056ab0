/**
 * Liveness of the channel worker process, for the container health check of the Fargate service.
 * The process answers on loopback only (`127.0.0.1`, never the task's network interface); the
 * check is a `node -e` one-liner run inside the container (`livenessProbeCommand`), so the image
 * needs no curl and the task opens no port to the network.
 *
 * Unhealthy means a loop of the worker stalled, not that a dependency failed: a scan that fails
 * (the table unreachable) still ends and is logged, and the leases stop sessions they cannot
 * renew. What a restart cures is a scan that never ends (a call that hangs), a renewal timer that
 * does not fire, or an event loop that does not turn (the probe gets no answer at all). A change of
 * one connection stuck half-way is not one of them: each connection's changes have their own queue
 * in the worker, so it holds up that connection only, and a restart of the task would drop every
 * other number on it. It is noted (`notes`), and the worker logs it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WorkerHeartbeat } from './worker.ts';

/** The loopback port the worker answers liveness on, unless `LIVENESS_PORT` says otherwise. */
export const defaultLivenessPort = 8081;

/** A change of a connection (close, lease, open) running longer than this is noted as slow; it never makes the worker unhealthy. */
export const changeStallMs = 120_000;

export interface Liveness {
  healthy: boolean;
  /** Why it is not healthy (empty when it is). */
  problems: string[];
  /** What is slow but not a stalled loop: connections whose change has been running for over `changeStallMs`. */
  notes: string[];
}

/**
 * A scan is due within 1.2 periods (jitter) and may take a while on a large index: it counts as
 * stalled after four periods or two minutes, whichever is longer. The renewal timer fires every
 * period; four missed periods mean the process is frozen.
 */
export function livenessOf(beat: WorkerHeartbeat, now: number): Liveness {
  const problems: string[] = [];
  const scanBound = Math.max(4 * beat.scanEveryMs, 120_000);
  if (now - beat.scannedAt > scanBound) problems.push(`no scan ended for ${Math.round((now - beat.scannedAt) / 1000)} s`);
  if (now - beat.renewedAt > 4 * beat.renewEveryMs) problems.push(`the renewal timer has not fired for ${Math.round((now - beat.renewedAt) / 1000)} s`);
  const notes = beat.changes
    .filter((change) => now - change.since > changeStallMs)
    .map((change) => `the change of connection ${change.serviceId} has been running for ${Math.round((now - change.since) / 1000)} s`);
  return { healthy: problems.length === 0, problems, notes };
}

/** Answers every request with 200 (healthy) or 503 and the problems, as JSON, on 127.0.0.1 only. */
export async function serveLiveness(probe: () => Liveness, port: number): Promise<Server> {
  const server = createServer((_req, res) => {
    const liveness = probe();
    res.writeHead(liveness.healthy ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify(liveness));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // Not unref'd: with no session open, this server is what keeps the process alive between scans.
  return server;
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/**
 * The container health check's command (ECS `CMD` form): exits 0 when the worker answers healthy
 * within 4 s, 1 otherwise. Plain `node`, which the image has, so no curl or wget is needed.
 */
export function livenessProbeCommand(port: number): string[] {
  const script = `fetch('http://127.0.0.1:${port}/',{signal:AbortSignal.timeout(4000)}).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))`;
  return ['CMD', 'node', '-e', script];
}

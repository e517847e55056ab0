import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { livenessOf, livenessProbeCommand, portOf, serveLiveness, type Liveness } from './liveness.ts';
import type { WorkerHeartbeat } from './worker.ts';

const now = 1_000_000_000;
const fresh: WorkerHeartbeat = { scannedAt: now - 5_000, scanEveryMs: 15_000, renewedAt: now - 2_000, renewEveryMs: 10_000, changes: [] };

describe('livenessOf', () => {
  it('is healthy while the scan and the renewal timer keep turning', () => {
    expect(livenessOf(fresh, now)).toEqual({ healthy: true, problems: [], notes: [] });
  });

  it('is unhealthy when no scan ended for two minutes (four periods of 15 s are less)', () => {
    expect(livenessOf({ ...fresh, scannedAt: now - 119_000 }, now).healthy).toBe(true);
    const stalled = livenessOf({ ...fresh, scannedAt: now - 121_000 }, now);
    expect(stalled.healthy).toBe(false);
    expect(stalled.problems).toEqual(['no scan ended for 121 s']);
  });

  it('allows four scan periods when they are longer than two minutes', () => {
    expect(livenessOf({ ...fresh, scanEveryMs: 60_000, scannedAt: now - 230_000 }, now).healthy).toBe(true);
    expect(livenessOf({ ...fresh, scanEveryMs: 60_000, scannedAt: now - 250_000 }, now).healthy).toBe(false);
  });

  it('is unhealthy when the renewal timer missed four periods', () => {
    expect(livenessOf({ ...fresh, renewedAt: now - 41_000 }, now).problems).toEqual(['the renewal timer has not fired for 41 s']);
  });

  it('stays healthy however long one connection change runs (it holds only that connection): noted past two minutes', () => {
    const changes = [
      { serviceId: 'A', since: now - 121_000 },
      { serviceId: 'B', since: now - 60_000 },
    ];
    expect(livenessOf({ ...fresh, changes }, now)).toEqual({
      healthy: true,
      problems: [],
      notes: ['the change of connection A has been running for 121 s'],
    });
    expect(livenessOf({ ...fresh, changes: [{ serviceId: 'A', since: now - 3_600_000 }] }, now).healthy).toBe(true);
  });
});

describe('serveLiveness and the probe command', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function probeExitCode(liveness: Liveness): Promise<number> {
    const server = await serveLiveness(() => liveness, 0);
    close = () => server.close();
    expect(server.address()).toMatchObject({ address: '127.0.0.1' });
    const [, node, flag, script] = livenessProbeCommand(portOf(server));
    try {
      await promisify(execFile)(node!, [flag!, script!]);
      return 0;
    } catch (error) {
      return (error as { code: number }).code;
    }
  }

  it('the probe exits 0 when the worker answers healthy, on loopback only', async () => {
    expect(await probeExitCode({ healthy: true, problems: [], notes: [] })).toBe(0);
  });

  it('the probe exits 1 when the worker answers unhealthy', async () => {
    expect(await probeExitCode({ healthy: false, problems: ['no scan ended for 200 s'], notes: [] })).toBe(1);
  });

  it('the probe exits 1 when nothing answers', async () => {
    const [, node, flag, script] = livenessProbeCommand(1);
    await expect(promisify(execFile)(node!, [flag!, script!])).rejects.toMatchObject({ code: 1 });
  });

  it('answers the problems as JSON with 503', async () => {
    const server = await serveLiveness(() => ({ healthy: false, problems: ['x'], notes: [] }), 0);
    close = () => server.close();
    const answer = await fetch(`http://127.0.0.1:${portOf(server)}/`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ healthy: false, problems: ['x'], notes: [] });
  });
});

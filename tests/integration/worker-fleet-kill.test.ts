/**
 * A worker process of the fleet killed mid-run (ADR-0203): three
 * worker processes (`tests/support/fleet-worker-child.ts`, the Fargate entry's loops on a light
 * WhatsApp double) against a local runtime of this file's own, connections spread over them, sends
 * queued through the API; one process gets SIGKILL while its connections' sends are queued and
 * more are queued after. Its connections resume on the others within two lease periods (a minute
 * with production's 30 s leases), and every send goes out exactly once (the sends log of every
 * process, and each message's ack), but one the kill caught mid hand-over, which fails as
 * 'interrupted' and is never sent twice (ADR-0113).
 *
 * The children run on 15 s leases and a 15 s command visibility instead of production's 30 s
 * (`FLEET_LEASE_SECONDS`, `FLEET_VISIBILITY_SECONDS`), with production's relations (visibility equal
 * to the lease, renewals and margin a third of it), so a dead lease runs out 15 s sooner (ADR-0201).
 * Not shorter: the sends queued after the kill (up to 6 s on a loaded machine) must still be routed
 * while the dead worker's leases stand, as the test means them to be.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { interruptedReason } from '#domain/messages/dispatch.ts';
import { readLease } from '#db/leases.ts';
import { writeServiceStatus } from '#db/services.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { fleetDouble } from '../support/fleet-double.ts';
import { ownRuntime, whatsappTeam } from './own-runtime.ts';
import { eventually } from './worker.ts';

const own = ownRuntime('conversa-fleet-kill-', { channels: [fleetDouble({ worker: 'api' }).adapter], worker: false });
const call = own.call;
const logDir = mkdtempSync(join(tmpdir(), 'fleet-kill-'));
const sentLog = join(logDir, 'sent.jsonl');
/** The children's leases and command visibility (production: 30 s both, `commandVisibilitySeconds`). */
const leaseSeconds = 15;

const children = new Map<string, ChildProcess>();
afterAll(async () => {
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  rmSync(logDir, { recursive: true, force: true });
}, 60_000);

async function startChild(workerId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/fleet-worker-child.ts'], {
    env: {
      ...process.env,
      FLEET_WORKER_ID: workerId,
      FLEET_SENT_LOG: sentLog,
      FLEET_LEASE_SECONDS: String(leaseSeconds),
      FLEET_VISIBILITY_SECONDS: String(leaseSeconds),
      FLEET_SCAN_SECONDS: '5',
      FLEET_DRAIN_SECONDS: '3',
      NODE_NO_WARNINGS: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.set(workerId, child);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${workerId} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"ready"')) resolve();
      else if (!line.startsWith('{')) console.error(`[${workerId}] ${line}`);
    });
  });
  return child;
}

const sentLines = (): { worker: string; serviceId: string; messageId: string }[] => {
  try {
    return readFileSync(sentLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
};

describe('the worker fleet: a process killed mid-run', () => {
  it('its connections resume on the others within two lease periods, and every queued send goes out exactly once', async () => {
    const workers = ['kill-a', 'kill-b', 'kill-c'];
    await Promise.all(workers.map(startChild));

    // Six accounts with a running connection and a contact each, made side by side.
    const teams = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const team = await whatsappTeam(call, 'kill');
        const contact = await call('POST', '/contacts', {
          token: team.token,
          body: { name: `Cliente ${i}`, serviceId: team.serviceId, data: { phoneNumber: `5511988${String(i).padStart(6, '0')}`, phoneCountry: 'BR' } },
        });
        expect(contact.status).toBe(201);
        await writeServiceStatus(
          own.ports().table,
          { accountId: team.accountId, id: team.serviceId, channelType: 'whatsapp' },
          {
            status: 'connected',
            runId: `run-${i}`,
            now: new Date().toISOString(),
          },
        );
        return { ...team, contactId: contact.body.id as string };
      }),
    );
    const owners = async () => Promise.all(teams.map(async (t) => (await readLease(own.ports().table, t.serviceId))?.ownerId));
    // Spread: every connection held, each worker holding some (the fair share is 2).
    await eventually(async () => {
      const now = await owners();
      return now.every(Boolean) && workers.every((w) => now.includes(w));
    }, 60_000);

    const send = async (team: (typeof teams)[number], text: string) => {
      const answer = await call('POST', '/messages/send', { token: team.token, body: { contactId: team.contactId, serviceId: team.serviceId, text } });
      expect(answer.status).toBe(201);
      return answer.body.id as string;
    };
    const stored: string[] = [];
    for (let round = 0; round < 3; round++) for (const team of teams) stored.push(await send(team, `antes ${round}`));

    // The crash, while those sends are being queued and sent.
    const before = await owners();
    const victim = before[0]!;
    const victims = teams.filter((_, i) => before[i] === victim);
    children.get(victim)!.kill('SIGKILL');
    const killedAt = Date.now();
    // More sends while the dead worker's leases still stand: they are routed to its queue, and come out of it after.
    for (let round = 0; round < 3; round++) for (const team of teams) stored.push(await send(team, `depois ${round}`));

    // Its connections resume on the other workers within two lease periods (production: a minute).
    const resumed = await eventually(async () => {
      const now = await owners();
      return victims.every((t) => {
        const owner = now[teams.indexOf(t)];
        return owner && owner !== victim;
      })
        ? Date.now() - killedAt
        : undefined;
    }, 60_000);
    expect(resumed).toBeLessThan(2 * leaseSeconds * 1000);

    // Every send goes out exactly once and its message says so, except one the kill caught between
    // its hand-over mark and its record (ADR-0113): that one may have reached the customer, so it
    // is never sent again but failed with the 'interrupted' reason, at most one per connection's lane.
    const settled = (m: { ack: number; error?: string }) => m.ack >= 1 || (m.ack === -2 && m.error === interruptedReason);
    const ackOf = async (team: (typeof teams)[number]) =>
      (await call('GET', `/messages${listQueryString({ where: { contactId: team.contactId } })}`, { token: team.token })).body.data as {
        id: string;
        ack: number;
        error?: string;
      }[];
    await eventually(
      async () => {
        const all = (await Promise.all(teams.map(ackOf))).flat();
        return stored.every((id) => all.find((m) => m.id === id && settled(m)));
      },
      // Sends the dead worker had received come back when their visibility ends (`leaseSeconds` here,
      // 30 s in production, ADR-0205); the rest is room for a loaded machine.
      180_000,
    ).catch(async (error) => {
      const all = (await Promise.all(teams.map(ackOf))).flat();
      console.error(
        '[fleet-kill] not sent (id, ack):',
        stored
          .filter((id) => !all.find((m) => m.id === id && settled(m)))
          .map((id) => {
            const message = all.find((m) => m.id === id);
            return [id, message?.ack, message?.error];
          }),
        'owners',
        await owners(),
        'victim',
        victim,
      );
      throw error;
    });
    const lines = sentLines();
    const byMessage = new Map<string, number>();
    for (const line of lines) byMessage.set(line.messageId, (byMessage.get(line.messageId) ?? 0) + 1);
    const final = (await Promise.all(teams.map(ackOf))).flat();
    const interrupted = stored.filter((id) => final.find((m) => m.id === id)!.ack === -2);
    expect(stored.filter((id) => !interrupted.includes(id) && byMessage.get(id) !== 1)).toEqual([]);
    expect(interrupted.filter((id) => (byMessage.get(id) ?? 0) > 1)).toEqual([]);
    expect(interrupted.length).toBeLessThanOrEqual(victims.length);
    expect(lines.filter((l) => !stored.includes(l.messageId))).toEqual([]);
    console.log(
      `[fleet-kill] ${victims.length} connections of ${victim} resumed ${resumed} ms after the kill; ${stored.length} sends, each once but ${interrupted.length} failed as interrupted`,
    );
  }, 330_000);
});

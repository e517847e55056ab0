/**
 * Tenant isolation of the realtime link under load: 10 accounts × 30 sockets (owner, admin and
 * member sessions of each), events produced in every account at once (the account renamed, messages
 * sent, the contact edited), and every socket receives each of its account's events exactly once and
 * nothing that names another account.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { realtimeUrl } from '../support/realtime-url.ts';
import { call } from './api.ts';
import { inboxTeam } from './inbox-setup.ts';

const accounts = 10;
const socketsPerAccount = 30;

interface Listener {
  account: number;
  socket: WebSocket;
  raw: string[];
}

const opened: WebSocket[] = [];
afterAll(() => {
  for (const s of opened) s.terminate();
});

async function listen(account: number, token: string): Promise<Listener> {
  const url = await realtimeUrl(inject('baseUrl'), token);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    opened.push(socket);
    const listener: Listener = { account, socket, raw: [] };
    socket.on('message', (data) => listener.raw.push(data.toString()));
    socket.once('open', () => resolve(listener));
    socket.once('error', reject);
  });
}

/**
 * Renames every account to `${label} ${i}` and waits until each socket has that rename. The local
 * runtime fans the table stream out in commit order, a batch after the one before (ADR-0016), and a
 * socket gets what is posted to it in order: once every socket has its rename, every event of a
 * change committed before the renames has reached every socket it was posted to.
 */
async function renameAllAndWait(teams: { owner: { accountId: string }; admin: { token: string } }[], listeners: Listener[], label: string) {
  await Promise.all(
    teams.map(async (t, i) => {
      const renamed = await call('PUT', `/accounts/${t.owner.accountId}`, { token: t.admin.token, body: { name: `${label} ${i}` } });
      expect(renamed.status).toBe(200);
    }),
  );
  const hasRename = (l: Listener) =>
    l.raw.some((raw) => {
      const e = JSON.parse(raw) as { event: string; data: { name?: string } };
      return e.event === 'account.UPDATED' && e.data.name === `${label} ${l.account}`;
    });
  await expect.poll(() => listeners.filter((l) => !hasRename(l)).length, { timeout: 60_000, interval: 50 }).toBe(0);
}

/** Runs `task` for 0..n-1, `width` at a time. */
async function inBatches<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, k) => task(i + k)))));
  return out;
}

describe('realtime isolation under many sockets', () => {
  it(`${accounts} accounts × ${socketsPerAccount} sockets: each socket gets its account's events exactly once, and no other account's`, async () => {
    const teams = await inBatches(accounts, 5, () => inboxTeam());
    // Sessions of different users and roles: owner, admin and member.
    const sessions = teams.map((t) => [t.owner.token, t.admin.token, t.member.token]);
    const listeners = await inBatches(accounts * socketsPerAccount, 50, (n) => {
      const account = Math.floor(n / socketsPerAccount);
      const tokens = sessions[account]!;
      return listen(account, tokens[n % tokens.length]!);
    });
    expect(listeners).toHaveLength(accounts * socketsPerAccount);
    // What the set-up itself produced has arrived (a rename made after it has); from here on every
    // socket of an account must get the same.
    await renameAllAndWait(teams, listeners, 'Antes');
    const offsets = new Map(listeners.map((l) => [l, l.raw.length]));

    // Every id that belongs to one account: none may appear in another account's socket.
    const idsOf = teams.map((t) => [t.owner.accountId, t.owner.user.id, t.admin.id, t.member.id, t.service.id, t.contact.id]);
    const sentIds: string[][] = teams.map(() => []);

    // All accounts at once: a rename, two messages, a contact edit.
    await Promise.all(
      teams.map(async (t, i) => {
        const token = t.admin.token;
        expect((await call('PUT', `/accounts/${t.owner.accountId}`, { token, body: { name: `Conta ${i}` } })).status).toBe(200);
        for (const k of [1, 2]) {
          const sent = await call('POST', '/messages/send', {
            token: t.member.token,
            body: { contactId: t.contact.id, serviceId: t.service.id, text: `Mensagem ${k} da conta ${i}` },
          });
          expect(sent.status).toBe(201);
          sentIds[i]!.push(sent.body.id);
        }
        const edited = await call('PUT', `/contacts/${t.contact.id}`, {
          token,
          body: { name: `Cliente da conta ${i}`, serviceId: t.service.id, data: t.contact.data },
        });
        expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      }),
    );
    for (let i = 0; i < accounts; i++) idsOf[i]!.push(...sentIds[i]!);

    const parsed = (l: Listener) => l.raw.map((r) => JSON.parse(r) as { event: string; data: any });
    const complete = (l: Listener) => {
      const events = parsed(l);
      const i = l.account;
      return (
        events.some((e) => e.event === 'account.UPDATED' && e.data.name === `Conta ${i}`) &&
        sentIds[i]!.every((id) => events.some((e) => e.event === 'message.CREATED' && e.data.id === id)) &&
        events.some((e) => e.event === 'contact.UPDATED' && e.data.name === `Cliente da conta ${i}`)
      );
    };
    await expect.poll(() => listeners.filter((l) => !complete(l)).length, { timeout: 60_000, interval: 250 }).toBe(0);
    // And every socket of an account gets the very same events since all were open, whoever's session
    // it is (polled: acks of the messages keep coming for a while, to each socket in its own time).
    const differing = () =>
      teams.filter((_, i) => {
        const [first, ...rest] = listeners.filter((l) => l.account === i).map((l) => JSON.stringify(l.raw.slice(offsets.get(l)).sort()));
        return rest.some((other) => other !== first);
      }).length;
    await expect.poll(differing, { timeout: 30_000, interval: 250 }).toBe(0);
    // Anything misaddressed that was still on its way has arrived (a rename made after it has).
    await renameAllAndWait(teams, listeners, 'Depois');

    for (const l of listeners) {
      const i = l.account;
      const events = parsed(l);
      for (const [j, ids] of idsOf.entries()) {
        if (j === i) continue;
        const leaked = l.raw.filter((raw) => ids.some((id) => raw.includes(id)));
        expect(leaked, `a socket of account ${i} got events of account ${j}`).toEqual([]);
      }
      for (const e of events) {
        const accountId = e.event.startsWith('account.') ? e.data.id : e.data.accountId;
        if (accountId !== undefined) expect(accountId).toBe(teams[i]!.owner.accountId);
      }
      // Exactly once: each message created once.
      for (const id of sentIds[i]!) expect(events.filter((e) => e.event === 'message.CREATED' && e.data.id === id)).toHaveLength(1);
    }
  }, 240_000);
});

/**
 * The realtime link follows the session: a token that is refused over HTTP is refused at `$connect`
 * too, and an open socket closes when its session ends (logout, password reset, its user archived
 * or deleted) or gets nothing more once its token has expired.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { realtimeUrl, TicketRefused } from '../support/realtime-url.ts';
import { call, lastMail, proTeam, signIn, strongPassword } from './api.ts';

interface OpenSocket {
  socket: WebSocket;
  messages: string[];
  /** Settles with the close code once the server (or the gateway) has closed the socket. */
  closed: Promise<number>;
}

/**
 * Opens a socket for the session of `token` as the web app does (a one-time ticket first). A
 * session that is over is refused with 401 either when it asks the ticket or at `$connect`.
 */
async function open(token: string): Promise<OpenSocket> {
  let url: string;
  try {
    url = await realtimeUrl(inject('baseUrl'), token);
  } catch (error) {
    throw error instanceof TicketRefused ? Object.assign(new Error('ticket refused'), { status: error.status }) : error;
  }
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: string[] = [];
    const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
    socket.on('message', (data) => messages.push(data.toString()));
    socket.once('open', () => resolve({ socket, messages, closed }));
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
    socket.once('error', reject);
  });
}

/** Whether the socket closes within `ms`. */
const closesWithin = (s: OpenSocket, ms: number) => Promise.race([s.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

/** A token signed with the runtime's own secret, for a user of an account, expiring `expiresIn` seconds from now. */
const signedToken = (userId: string, accountId: string, expiresIn: number) => signedTokenUntil(userId, accountId, Math.floor(Date.now() / 1000) + expiresIn);

/** The same, expiring at `exp` (epoch seconds). */
async function signedTokenUntil(userId: string, accountId: string, exp: number): Promise<string> {
  const secret = readFileSync(join(inject('dataDir'), 'jwt-secret'), 'utf8').trim();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ acc: accountId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(ulid())
    .setIssuer('conversa')
    .setIssuedAt(Math.min(now, exp) - 60)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

/** Resolves once this machine's clock (the runtime's too) reads `epochMs` or later. */
async function clockPast(epochMs: number): Promise<void> {
  while (Date.now() < epochMs) await new Promise((r) => setTimeout(r, epochMs - Date.now()));
}

/** Renames the account: an `account.UPDATED` event to every socket of the account. */
const touchAccount = (token: string, accountId: string, name: string) => call('PUT', `/accounts/${accountId}`, { token, body: { name } });

describe('realtime sessions: refused at $connect', () => {
  it('refuses an expired, a revoked and a forged token, and the token of an archived user', async () => {
    const { owner, admin, member } = await proTeam();
    await expect(open(await signedToken(member.id, owner.accountId, -10))).rejects.toMatchObject({ status: 401 });

    const revoked = await signIn(member.email, strongPassword);
    expect((await call('POST', '/auth/logout', { token: revoked })).status).toBe(204);
    await expect(open(revoked)).rejects.toMatchObject({ status: 401 });

    const forged = `${member.token.slice(0, -4)}AAAA`;
    await expect(open(forged)).rejects.toMatchObject({ status: 401 });

    expect((await call('POST', `/users/${member.id}/archive`, { token: admin.token, body: { archive: true } })).status).toBe(200);
    await expect(open(member.token)).rejects.toMatchObject({ status: 401 });
    // The same token that still works for someone else's socket proves the gateway itself is up.
    (await open(owner.token)).socket.close();
  });

  it('refuses every token issued before a password reset, and accepts the one the reset answers', async () => {
    const { member } = await proTeam();
    const before = await signIn(member.email, strongPassword);
    expect((await call('POST', '/auth/forgot-password', { body: { email: member.email } })).status).toBe(204);
    const code = (await lastMail(member.email))!.code!;
    const reset = await call('POST', '/auth/reset-password', { body: { email: member.email, verifyCode: code, password: 'Nova#Senha456' } });
    expect(reset.status).toBe(200);
    await expect(open(before)).rejects.toMatchObject({ status: 401 });
    await expect(open(member.token)).rejects.toMatchObject({ status: 401 });
    expect((await call('GET', '/auth/me', { token: before })).status).toBe(401);
    const after = await open(reset.body.accessToken);
    after.socket.close();
  });
});

describe('realtime sessions: an open socket of an ended session', () => {
  it('closes on logout, and only the socket of that session', async () => {
    const { owner, member } = await proTeam();
    const second = await signIn(member.email, strongPassword);
    const [ending, sameUserOtherSession, ownerSocket] = await Promise.all([open(member.token), open(second), open(owner.token)]);
    expect((await call('POST', '/auth/logout', { token: member.token })).status).toBe(204);
    expect(await closesWithin(ending, 5000)).toBe(true);
    // The others stay open and keep receiving.
    const count = sameUserOtherSession.messages.length;
    expect((await touchAccount(owner.token, owner.accountId, 'Equipe Renomeada')).status).toBe(200);
    await expect.poll(() => sameUserOtherSession.messages.length, { timeout: 5000 }).toBeGreaterThan(count);
    await expect.poll(() => ownerSocket.messages.some((m) => m.includes('Equipe Renomeada')), { timeout: 5000 }).toBe(true);
    expect(sameUserOtherSession.socket.readyState).toBe(WebSocket.OPEN);
    sameUserOtherSession.socket.close();
    ownerSocket.socket.close();
  });

  it('closes every socket of a user whose password is reset', async () => {
    const { member } = await proTeam();
    const sockets = await Promise.all([open(member.token), open(await signIn(member.email, strongPassword))]);
    await call('POST', '/auth/forgot-password', { body: { email: member.email } });
    const code = (await lastMail(member.email))!.code!;
    const reset = await call('POST', '/auth/reset-password', { body: { email: member.email, verifyCode: code, password: 'Nova#Senha456' } });
    expect(reset.status).toBe(200);
    expect(await Promise.all(sockets.map((s) => closesWithin(s, 5000)))).toEqual([true, true]);
  });

  it('closes every socket of a user archived or deleted by an admin, and no one else’s', async () => {
    const { owner, admin, member } = await proTeam();
    const [memberSocket, adminSocket, ownerSocket] = await Promise.all([open(member.token), open(admin.token), open(owner.token)]);
    expect((await call('POST', `/users/${member.id}/archive`, { token: owner.token, body: { archive: true } })).status).toBe(200);
    expect(await closesWithin(memberSocket, 5000)).toBe(true);

    expect((await call('DELETE', `/users/${admin.id}`, { token: owner.token })).status).toBe(204);
    expect(await closesWithin(adminSocket, 5000)).toBe(true);
    expect(ownerSocket.socket.readyState).toBe(WebSocket.OPEN);
    ownerSocket.socket.close();
  });

  it('gets nothing once its token has expired, and is closed at the next event of its account', async () => {
    const { owner, member } = await proTeam();
    // Valid for at least a second (room to open both sockets), expired from the next whole second on.
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const shortLived = await open(await signedTokenUntil(member.id, owner.accountId, expiresAt));
    const ownerSocket = await open(owner.token);
    // The event below is made, and fanned out, once the token has expired (the fan-out reads the same clock).
    await clockPast(expiresAt * 1000);
    expect((await touchAccount(owner.token, owner.accountId, 'Depois da Expiração')).status).toBe(200);
    await expect.poll(() => ownerSocket.messages.some((m) => m.includes('Depois da Expiração')), { timeout: 5000 }).toBe(true);
    expect(await closesWithin(shortLived, 5000)).toBe(true);
    expect(shortLived.messages.some((m) => m.includes('Depois da Expiração'))).toBe(false);
    ownerSocket.socket.close();
  });
});

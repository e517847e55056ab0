/**
 * The realtime link opens with a one-time ticket, never with the access token in the URL (ADR-0187,
 * AWS 6: the URL lands in WAF and CloudFront logs). `POST /api/ws-ticket` answers a ticket bound to
 * the caller's session; `$connect` spends it atomically, so it opens one socket once, within its few
 * seconds, and only while its session lives.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { keys } from '#db/keys.ts';
import { accountConnections } from '#db/ws-connections.ts';
import { ticketDigest } from '#db/ws-tickets.ts';
import { ticketUrl, wsTicket } from '../support/realtime-url.ts';
import { call, lastMail, proTeam, signIn, strongPassword } from './api.ts';

const baseUrl = () => inject('baseUrl');

/** Opens a socket at `url`: its socket, or a rejection carrying the handshake's status. */
function openAt(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error('refused'), { status: res.statusCode })));
    socket.once('error', reject);
  });
}

const table = () => ({
  name: inject('tableName'),
  doc: DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: inject('dynamoUrl'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  ),
});

describe('the realtime ticket', () => {
  it('is what opens a socket: an access token in the URL is refused', async () => {
    const { owner } = await proTeam();
    const wsBase = baseUrl().replace(/^http/, 'ws');
    await expect(openAt(`${wsBase}/ws?token=${encodeURIComponent(owner.token)}`)).rejects.toMatchObject({ status: 401 });
    await expect(openAt(`${wsBase}/ws`)).rejects.toMatchObject({ status: 401 });
    await expect(openAt(`${wsBase}/ws?ticket=${encodeURIComponent(owner.token)}`)).rejects.toMatchObject({ status: 401 });
    (await openAt(ticketUrl(baseUrl(), await wsTicket(baseUrl(), owner.token)))).close();
  });

  it('is answered to any signed-in session, random and short-lived, and refused without one', async () => {
    const { member } = await proTeam();
    const answer = await call('POST', '/ws-ticket', { token: member.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ticket: expect.stringMatching(/^[\w-]{40,}$/), expiresIn: 30 });
    const again = await call('POST', '/ws-ticket', { token: member.token });
    expect(again.body.ticket).not.toBe(answer.body.ticket);
    expect((await call('POST', '/ws-ticket')).status).toBe(401);
  });

  it('opens one socket once: a replay is refused, also when raced', async () => {
    const { owner } = await proTeam();
    const ticket = await wsTicket(baseUrl(), owner.token);
    const socket = await openAt(ticketUrl(baseUrl(), ticket));
    await expect(openAt(ticketUrl(baseUrl(), ticket))).rejects.toMatchObject({ status: 401 });
    socket.close();

    // Six handshakes with one ticket at once: exactly one is accepted.
    const raced = await wsTicket(baseUrl(), owner.token);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => openAt(ticketUrl(baseUrl(), raced))));
    const opened = results.filter((r): r is PromiseFulfilledResult<WebSocket> => r.status === 'fulfilled');
    expect(opened).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 401 });
    for (const r of opened) r.value.close();
  });

  it('records the connection under the session it was asked with', async () => {
    const { owner, member } = await proTeam();
    const session = await signIn(member.email, strongPassword);
    const socket = await openAt(ticketUrl(baseUrl(), await wsTicket(baseUrl(), session)));
    const now = Math.floor(Date.now() / 1000);
    await expect
      .poll(async () => (await accountConnections(table(), owner.accountId, now)).filter((c) => c.userId === member.id))
      .toEqual([expect.objectContaining({ accountId: owner.accountId, userId: member.id, isAdmin: false, generation: 0, jti: expect.any(String) })]);
    socket.close();
  });

  it('is refused once expired, even before the table removes it', async () => {
    const { owner } = await proTeam();
    const ticket = await wsTicket(baseUrl(), owner.token);
    const t = table();
    await t.doc.send(
      new UpdateCommand({
        TableName: t.name,
        Key: keys.wsTicket(ticketDigest(ticket)),
        UpdateExpression: 'SET expiresAt = :past',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    await expect(openAt(ticketUrl(baseUrl(), ticket))).rejects.toMatchObject({ status: 401 });
  });

  it('is refused when its session ended after it was asked: logout, archived user, password reset', async () => {
    const { owner, admin, member } = await proTeam();

    const loggedOut = await signIn(member.email, strongPassword);
    const ticketOfLoggedOut = await wsTicket(baseUrl(), loggedOut);
    expect((await call('POST', '/auth/logout', { token: loggedOut })).status).toBe(204);
    await expect(openAt(ticketUrl(baseUrl(), ticketOfLoggedOut))).rejects.toMatchObject({ status: 401 });

    const beforeReset = await wsTicket(baseUrl(), admin.token);
    expect((await call('POST', '/auth/forgot-password', { body: { email: admin.email } })).status).toBe(204);
    const code = (await lastMail(admin.email))!.code!;
    const reset = await call('POST', '/auth/reset-password', { body: { email: admin.email, verifyCode: code, password: 'Nova#Senha456' } });
    expect(reset.status).toBe(200);
    await expect(openAt(ticketUrl(baseUrl(), beforeReset))).rejects.toMatchObject({ status: 401 });

    const beforeArchive = await wsTicket(baseUrl(), member.token);
    expect((await call('POST', `/users/${member.id}/archive`, { token: owner.token, body: { archive: true } })).status).toBe(200);
    await expect(openAt(ticketUrl(baseUrl(), beforeArchive))).rejects.toMatchObject({ status: 401 });

    // The gateway is up: a live session's ticket still opens.
    (await openAt(ticketUrl(baseUrl(), await wsTicket(baseUrl(), owner.token)))).close();
  });
});

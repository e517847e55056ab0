/**
 * WhatsApp end to end over the local runtime, with only the WhatsApp network doubled: the runtime
 * runs as `npm start` does, but its worker's sockets are Baileys socket doubles
 * (tests/support/runtime-with-whatsapp-double.ts) that this test drives through their control server.
 * The QR, the pairing, an inbound message, replies (paced) and their acks go through the product's
 * whole path: session → table → stream → realtime fan-out → the browser's WebSocket, and
 * composer → API → table → stream → dispatch-outbound → worker queue → worker → pacer → socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proto } from 'baileys';
import QRCode from 'qrcode';
import type { WhatsAppControl } from '../support/whatsapp-control.ts';
import { callApi, expectAccessible, newPage } from './browser.ts';
import { newTeam, openAs, startWorld, type World } from './world.ts';

/** The worker's send pace in this runtime (no jitter): small, so the test stays short. */
const paceMs = 300;
/** Timers and clocks may be a few ms off; the pacer's gap is measured between its own turns. */
const slackMs = 30;
/** Generous: the machine is shared, and each step crosses several processes and queues. */
const live = { timeout: 30_000 };

let world: World;
let whatsapp: WhatsAppControl;
beforeAll(async () => {
  world = await startWorld({ whatsappDouble: { paceMs } });
  whatsapp = world.whatsapp!;
});
afterAll(async () => {
  await world?.stop();
});

describe('WhatsApp, end to end over the local runtime with the socket double', () => {
  it('pairs by QR, receives a customer’s message live, and the replies go out paced with their acks advancing', async () => {
    const team = await newTeam(world, 'Ótica Visão Clara');
    const { page, context, errors } = await newPage(world.browser);
    // Every realtime frame the page receives, to see the QR arrive as `service.UPDATED`.
    const frames: { event: string; data: { id?: string; data?: { qrCode?: string | null } } }[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.startsWith('{')) frames.push(JSON.parse(payload));
      }),
    );

    // The owner creates the WhatsApp connection on /services.
    await openAs(page, world, team.owner, '/services');
    await page.getByText('Nenhum registro encontrado').waitFor();
    await page.getByRole('link', { name: 'Nova conexão' }).click();
    const create = page.getByRole('dialog', { name: 'Nova conexão' });
    await create.getByLabel('Nome').fill('Zap da Ótica');
    await create.getByLabel('Tipo').selectOption('whatsapp');
    await create.getByRole('button', { name: 'Criar' }).click();
    await page.waitForURL(/\/services$/);
    const row = page.getByTestId('service-row').filter({ hasText: 'Zap da Ótica' });
    await row.getByText('Desconectado').waitFor();
    await page.locator('html[data-realtime="open"]').waitFor({ state: 'attached', ...live });
    const serviceId = (await callApi(world.base, 'GET', '/services', undefined, team.owner.token)).body.data[0].id as string;

    // 'Iniciar': the worker takes the connection from its queue and its session opens a socket.
    await row.getByRole('button', { name: 'Iniciar Zap da Ótica', exact: true }).click();
    await whatsapp.waitFor(serviceId, (socket) => socket.sockets === 1);
    await row.getByRole('link', { name: 'Ler código QR de Zap da Ótica' }).click();
    const modal = page.getByRole('dialog', { name: 'Código QR para Zap da Ótica' });
    await modal.waitFor();

    // WhatsApp hands the socket a QR: it reaches the open modal as an image, through `service.UPDATED`.
    const qr = '2@Xk9vQ1c3ZmRk,b0hUa2xTcz0=,T1BkR0ZqZz0=,c3RhcnQ=';
    await whatsapp.emit(serviceId, 'connection.update', { qr });
    const image = modal.getByRole('img', { name: 'Código QR da conexão Zap da Ótica' });
    await image.waitFor(live);
    const src = await QRCode.toDataURL(qr);
    expect(await image.getAttribute('src')).toBe(src);
    expect(frames.some((f) => f.event === 'service.UPDATED' && f.data.id === serviceId && f.data.data?.qrCode === src)).toBe(true);
    await expectAccessible(page, '/services/{id}/qr-code');

    // The phone reads it: the modal closes by itself and the list shows the connection connected.
    await whatsapp.pair(serviceId, '5511933334444', 'Ótica Visão Clara');
    await modal.waitFor({ state: 'detached', ...live });
    await row.getByText('Conectado', { exact: true }).waitFor(live);
    expect(new URL(page.url()).pathname).toBe('/services');
    await expectAccessible(page, '/services');

    // A customer writes: the conversation and the message appear in the inbox live.
    await page.getByRole('link', { name: 'Chat', exact: true }).click();
    await page.getByText('Nenhum registro encontrado').waitFor();
    const customer = '5511987654321@s.whatsapp.net';
    await whatsapp.emit(serviceId, 'messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: customer, fromMe: false, id: '3A5F0C1D2E3B4A596870' },
          messageTimestamp: Math.floor(Date.now() / 1000),
          pushName: 'Mariana Costa',
          message: { conversation: 'Oi! A armação que encomendei já chegou?' },
        },
      ],
    });
    await page.getByTestId('inbox-contact').filter({ hasText: 'Mariana Costa' }).waitFor(live);
    await page.waitForURL(/\/inbox\/[0-9A-Z]+$/, live);
    await page.getByTestId('message').filter({ hasText: 'Oi! A armação que encomendei já chegou?' }).waitFor(live);
    await expectAccessible(page, '/inbox/{id}');

    // A reply from the composer reaches the socket, to the customer's JID, and shows sent.
    const box = page.getByLabel('Mensagem', { exact: true });
    const first = 'Chegou sim! Pode vir buscar hoje.';
    await box.fill(first);
    await box.press('Enter');
    const sentFirst = await whatsapp.waitFor(serviceId, (socket) => socket.sent.length >= 1);
    expect(sentFirst.sent.map(({ jid, text }) => ({ jid, text }))).toEqual([{ jid: customer, text: first }]);
    const firstBubble = page.getByTestId('message').filter({ hasText: first });
    await firstBubble.locator('[data-ack="1"]').waitFor(live);

    // Two more in quick succession: they reach the socket in order, at least the pace apart.
    const followUps = ['Estamos abertos até as 18h.', 'Traga a receita, por favor.'];
    for (const text of followUps) {
      await box.fill(text);
      await box.press('Enter');
    }
    const { sent } = await whatsapp.waitFor(serviceId, (socket) => socket.sent.length >= 3);
    expect(sent.map((s) => s.text)).toEqual([first, ...followUps]);
    expect(sent.every((s) => s.jid === customer)).toBe(true);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(paceMs - slackMs);

    // The customer's phone receives, then reads, the first reply: its tick advances live.
    const status = async (id: string, value: proto.WebMessageInfo.Status) =>
      whatsapp.emit(serviceId, 'messages.update', [{ key: { remoteJid: customer, fromMe: true, id }, update: { status: value } }]);
    await status(sent[0]!.id!, proto.WebMessageInfo.Status.DELIVERY_ACK);
    await firstBubble.locator('[data-ack="2"]', { hasText: 'Entregue' }).waitFor(live);
    await status(sent[0]!.id!, proto.WebMessageInfo.Status.READ);
    await firstBubble.locator('[data-ack="3"]', { hasText: 'Lida' }).waitFor(live);
    // The follow-ups were stored with their WhatsApp ids too: a read receipt reaches the last one.
    const lastBubble = page.getByTestId('message').filter({ hasText: followUps[1]! });
    await lastBubble.locator('[data-ack="1"]').waitFor(live);
    await status(sent[2]!.id!, proto.WebMessageInfo.Status.READ);
    await lastBubble.locator('[data-ack="3"]', { hasText: 'Lida' }).waitFor(live);
    await expectAccessible(page, '/inbox/{id}, replies read');

    expect(errors).toEqual([]);
    await context.close();
  });
});

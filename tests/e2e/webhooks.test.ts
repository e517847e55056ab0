/**
 * 'Webhooks' in the browser (docs/product.md#webhooks), on a phone in the dark theme: the empty
 * state, the form's pt-BR refusals, a webhook created with the keyboard and its secret shown once,
 * 'Enviar evento de teste' reaching a real receiver on 127.0.0.1 (the runtime started with
 * WEBHOOKS_ALLOW_LOOPBACK=1) whose signature checks, and the delivery log with the answer's status.
 * axe clean at 390 px, dark, with nothing wider than the phone.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature, webhookSignatureHeader } from '#domain/webhooks/webhook-signature.ts';
import { expectAccessible, newPage, root } from './browser.ts';
import { doceria, fileWorld, openAs, type World } from './world.ts';

let world: World;
fileWorld(
  (started) => {
    world = started;
  },
  { env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } },
);

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
});
let receiverUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/n8n/conversa`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const shots = `${root}/.tmp/webhooks-shots`;

describe('webhooks screen', () => {
  it('creates a webhook, shows its secret once, sends a signed test event and lists its delivery', { timeout: 90_000 }, async () => {
    const { owner } = await doceria(world);
    const { page, context, errors } = await newPage(world.browser, { width: 390, height: 844, dark: true });
    await openAs(page, world, owner, '/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Nenhum webhook ainda' }).waitFor();
    await expectAccessible(page, '/webhooks, empty, 390 px dark');

    await page.getByRole('button', { name: 'Novo webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo webhook' });
    await dialog.getByRole('button', { name: 'Criar webhook' }).click();
    await dialog.getByText('Campo obrigatório').waitFor();
    await dialog.getByText('Escolha pelo menos um evento').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('webhook-url');

    await dialog.getByLabel('URL de destino').fill(receiverUrl);
    await dialog.getByLabel('Descrição').fill('n8n da doceria');
    // The events by keyboard: Tab to the first, Space to check it.
    await dialog.getByLabel('Descrição').press('Tab');
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('checkbox', { name: /Mensagem criada/ }).isChecked()).toBe(true);
    await dialog.getByRole('checkbox', { name: /Conversa atribuída ou transferida/ }).check();
    await expectAccessible(page, 'Novo webhook, 390 px dark');
    await dialog.getByRole('button', { name: 'Criar webhook' }).click();

    const created = page.getByRole('dialog', { name: 'Webhook criado' });
    await created.getByText('Copie o segredo agora').waitFor();
    const secret = await created.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^whsec_[\w-]{40,}$/);
    await created.getByRole('button', { name: 'Concluir' }).click();

    const row = page.getByTestId('webhook-row');
    await row.getByRole('heading', { name: 'n8n da doceria' }).waitFor();
    expect(await row.textContent()).toContain('Ativo');
    expect(await row.textContent()).not.toContain(secret);
    expect(await row.getByRole('list', { name: 'Eventos de n8n da doceria' }).textContent()).toMatch(/Mensagem criada.*Conversa atribuída ou transferida/);

    await row.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.getByText('Evento de teste entregue').waitFor();
    expect(received).toHaveLength(1);
    const ping = JSON.parse(received[0]!.body);
    expect(ping).toMatchObject({ type: 'ping', accountId: owner.accountId });
    const header = received[0]!.headers[webhookSignatureHeader.toLowerCase()] as string;
    expect(verifyWebhookSignature(secret, header, received[0]!.body, Math.floor(Date.now() / 1000))).toBe(true);

    // The log opened with the test's delivery: the status, the time and the outcome in pt-BR.
    const delivery = row.getByTestId('webhook-delivery');
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain('HTTP 204');
    expect(await delivery.textContent()).toMatch(/\d+ ms/);
    expect(await delivery.textContent()).toContain(ping.id);
    expect(await row.getByRole('button', { name: 'Ocultar entregas' }).getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page, '/webhooks with a delivery, 390 px dark');
    await page.screenshot({ path: `${shots}/webhooks-dark-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await context.close();
  });
});

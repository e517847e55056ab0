/**
 * Voice notes where the browser's MediaRecorder records no WebM (Safari records AAC/MP4, which
 * WhatsApp may not play as a voice note): the composer records PCM and encodes OGG/Opus in the page
 * (opus-recorder's WASM encoder), under the site's real CSP (the local runtime sends it). Chromium
 * plays Safari here: an init script makes `MediaRecorder.isTypeSupported` answer false for WebM,
 * and the fake microphone beeps. The uploaded bytes must be OGG/Opus that libopus decodes to sound.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oggOpusVoiceShape } from '#media/ogg-opus-waveform.ts';
import { callApi, expectAccessible } from './browser.ts';
import { eventually, newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.stop();
});

/** Safari's answer: no WebM. Also records CSP violations. */
async function safariLike(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
    const original = MediaRecorder.isTypeSupported.bind(MediaRecorder);
    MediaRecorder.isTypeSupported = (type: string) => (/webm/i.test(type) ? false : original(type));
  });
}

/** A team whose Telegram bot is polling, and a customer who wrote first (so the bot may answer). */
async function team() {
  const t = await newTeam(world, 'Padaria Pão Quente');
  const token = `${800_000 + (Date.now() % 100_000)}:AAH-padaria`;
  const bot = world.telegram.addBot(token, 'Padaria');
  const service = await callApi(world.base, 'POST', '/services', { name: 'Bot da Padaria', type: 'telegram', token }, t.owner.token);
  expect(service.status).toBe(201);
  expect((await callApi(world.base, 'POST', `/services/${service.body.id}/start`, undefined, t.owner.token)).status).toBeLessThan(300);
  await eventually(async () => bot.polling);
  bot.receive({ id: 555_777, first_name: 'Marta', last_name: 'Souza' }, { text: 'Oi! Tem pão de queijo?' });
  const contactId = await eventually(async () => {
    const contacts = await callApi(world.base, 'GET', '/contacts', undefined, t.owner.token);
    return contacts.body.data?.[0]?.id as string | undefined;
  });
  return { owner: t.owner, contactId, bot };
}

async function record(page: Page, seconds: string): Promise<void> {
  await page.getByRole('button', { name: 'Gravar áudio (R)' }).click();
  await page.getByText('Gravando').waitFor({ timeout: 15_000 });
  await page.getByTestId('recording-timer').filter({ hasText: seconds }).waitFor({ timeout: 15_000 });
}

describe('voice notes without WebM in the browser', () => {
  it('are recorded as OGG/Opus in the page (WASM encoder, under the CSP) and uploaded as such, decodable to sound', async () => {
    const { owner, contactId, bot } = await team();
    // The site's CSP applies (no bypass): the encoder's WASM must compile under it.
    const context = await world.browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
    await safariLike(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const uploads: { mimetype: string; isPtt: boolean; base64?: string; name: string }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/files/generate-url-to-upload')) uploads.push(request.postDataJSON());
    });
    await openAs(page, world, owner, `/inbox/${contactId}`);
    expect(await page.evaluate(() => MediaRecorder.isTypeSupported('audio/webm;codecs=opus'))).toBe(false);
    await record(page, '00:02');
    await page.getByRole('button', { name: 'Enviar áudio' }).click();
    await page
      .getByTestId('message')
      .filter({ has: page.getByLabel('Mensagem de voz') })
      .waitFor({ timeout: 20_000 });

    expect(uploads).toHaveLength(1);
    const upload = uploads[0]!;
    expect(upload).toMatchObject({ mimetype: 'audio/ogg', isPtt: true });
    expect(upload.name).toMatch(/\.ogg$/);
    const bytes = new Uint8Array(Buffer.from(upload.base64!, 'base64'));
    expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('OggS');
    expect(Buffer.from(bytes).toString('latin1')).toContain('OpusHead');
    const shape = await oggOpusVoiceShape(bytes);
    expect(shape).not.toBeNull();
    expect(shape!.seconds).toBeGreaterThan(1.5);
    // The fake microphone's beeps: sound, not silence.
    expect(Math.max(...shape!.waveform)).toBe(100);
    expect(new Set(shape!.waveform).size).toBeGreaterThan(4);
    // And the browser itself plays it.
    const duration = await page.evaluate(async (b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const audio = new Audio(URL.createObjectURL(new Blob([data], { type: 'audio/ogg' })));
      return new Promise<number>((done) => {
        audio.addEventListener('loadedmetadata', () => done(audio.duration));
        audio.addEventListener('error', () => done(-1));
      });
    }, upload.base64!);
    expect(duration).toBeGreaterThan(1);
    // Telegram got it as a voice note, the recorded OGG/Opus as it was (nothing to repackage).
    const voice = await eventually(async () => bot.sent.find((c) => c.method === 'sendVoice' && c.answer.ok));
    expect(Buffer.from(voice.file!.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the recorder readably while recording and after, light and dark, at 390 px; axe finds nothing serious', async () => {
    const { owner, contactId } = await team();
    for (const [index, variant] of [
      { name: 'light', dark: false, width: 1280 },
      { name: 'dark', dark: true, width: 1280 },
      { name: 'phone', dark: false, width: 390 },
    ].entries()) {
      // axe is injected as a script, which the CSP rightly refuses: this context bypasses it (the first test does not).
      const context = await world.browser.newContext({
        locale: 'pt-BR',
        viewport: { width: variant.width, height: 800 },
        colorScheme: variant.dark ? 'dark' : 'light',
        bypassCSP: true,
      });
      await safariLike(context);
      const page = await context.newPage();
      await openAs(page, world, owner, `/inbox/${contactId}`);
      await record(page, '00:01');
      await page.screenshot({ path: `.tmp/voice-shots/recording-${variant.name}.png` });
      await expectAccessible(page, `recorder ${variant.name}`);
      await page.getByRole('button', { name: 'Pausar gravação' }).click();
      await page.getByText('Pausado').waitFor();
      await page.getByRole('button', { name: 'Enviar áudio' }).click();
      // Sent and acknowledged by Telegram (one tick): this variant's note, after the earlier ones.
      const acked = page
        .getByTestId('message')
        .filter({ has: page.getByLabel('Mensagem de voz') })
        .locator('[data-ack="1"]');
      await expect.poll(() => acked.count(), { timeout: 20_000 }).toBe(index + 1);
      await page.screenshot({ path: `.tmp/voice-shots/sent-${variant.name}.png` });
      await context.close();
    }
  });
});

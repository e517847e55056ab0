/**
 * Only regenerates the test fixture `tests/fixtures/voice.webm`: about 2 s of a real browser
 * recording (WebM/Opus from MediaRecorder, as the composer records it), made with Debian's
 * chromium and its fake microphone (a beep), driven by playwright-core. Not part of the build or
 * the tests; run by hand with `npx tsx scripts/make-voice-fixture.ts` when the fixture must change.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../tests/e2e/browser.ts';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const out = new URL('../tests/fixtures/voice.webm', import.meta.url);

// getUserMedia needs a secure context: a blank page on localhost is one, about:blank is not.
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>voice</title>'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const browser = await chromium.launch({
  executablePath,
  args: [...chromiumArgs, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${port}/`);
  const base64 = await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const recorder = new MediaRecorder(stream, { mimeType: 'audio/webm;codecs=opus' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    // 200 ms chunks, as the composer records.
    recorder.start(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    recorder.stop();
    await stopped;
    for (const track of stream.getTracks()) track.stop();
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'audio/webm' }).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  const bytes = Buffer.from(base64, 'base64');
  writeFileSync(out, bytes);
  console.log(`wrote ${out.pathname} (${bytes.length} bytes)`);
} finally {
  await browser.close();
  server.close();
}

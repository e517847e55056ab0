/**
 * The Content-Security-Policy CloudFront sends (infra/site-headers.ts) against the real app in a
 * real browser: a loopback server serves web/dist with exactly the site's headers and forwards
 * `/api` and `/ws` to the local runtime, as CloudFront forwards them to API Gateway; the media
 * bucket's origin is the local S3's. Pages are opened signed out and signed in, the things the app
 * loads from elsewhere (data: and blob: images and sounds, a presigned upload) are exercised, and
 * any `securitypolicyviolation` fails the test.
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHeaders } from '../../infra/site-headers.ts';
import { serveStatic } from '../../infra/local/runtime/static-site.ts';
import { root } from './browser.ts';
import { newTeam, openAs, startWorld, type World } from './world.ts';

let world: World;
let site: Server;
let siteUrl: string;
let headers: Record<string, string>;

/** Serves web/dist with the site's headers; `/api/*` and `/ws` go to the runtime untouched. */
function startSite(runtimeUrl: string, mediaOrigin: string): Promise<Server> {
  headers = siteHeaders({ mediaOrigin });
  const runtime = new URL(runtimeUrl);
  const dist = join(root, 'web', 'dist');
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/api/')) {
      const upstream = request({ host: runtime.hostname, port: runtime.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...headers });
        answer.pipe(res);
      });
      req.pipe(upstream);
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    void serveStatic(dist, req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(Number(runtime.port), runtime.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`), '', ''];
      upstream.write(lines.join('\r\n'));
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A page that records CSP violations (the DOM event, and the console's report of it). */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; violations: string[] }> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return { page, violations };
}

const recorded = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

beforeAll(async () => {
  world = await startWorld();
  site = await startSite(world.runtime.url, new URL(world.runtime.s3Url).origin);
  const address = site.address() as { port: number };
  siteUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
  await world?.stop();
});

describe("the site's Content-Security-Policy in a browser", () => {
  it('is sent with every page, and names the inline script by hash, not unsafe-inline', async () => {
    const answer = await fetch(`${siteUrl}/inbox`);
    expect(answer.headers.get('content-security-policy')).toBe(headers['content-security-policy']);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(headers['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+'){2} 'wasm-unsafe-eval';/);
  });

  it('lets the public pages and the auth screens load and run with no violation', async () => {
    const context = await world.browser.newContext({ locale: 'pt-BR' });
    const { page, violations } = await watchedPage(context);
    for (const path of ['/', '/about', '/demo', '/login', '/register', '/forgot-password']) {
      await page.goto(`${siteUrl}${path}`);
      await page.waitForLoadState('networkidle');
      // The theme script ran (the inline script is allowed) and React rendered.
      expect(await page.evaluate(() => document.documentElement.style.colorScheme), path).not.toBe('');
      expect(await page.locator('#root > *').count(), path).toBeGreaterThan(0);
      expect([...(await recorded(page)), ...violations], path).toEqual([]);
    }
    await context.close();
  });

  it('lets the signed-in app run, with its WebSocket on /ws, data: and blob: media, and an upload to and an image from the bucket, with no violation', async () => {
    const siteWorld = { ...world, base: siteUrl };
    const team = await newTeam(siteWorld, 'Loja CSP');
    const context = await world.browser.newContext({ locale: 'pt-BR' });
    const { page, violations } = await watchedPage(context);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname));
    for (const path of ['/inbox', '/contacts', '/services', '/users', '/my-account']) {
      await openAs(page, siteWorld, team.owner, path);
      await page.waitForLoadState('networkidle');
      expect(await page.locator('#root > *').count(), path).toBeGreaterThan(0);
    }
    // What the app loads from outside its own files, done the way the app does it: uploads are PUT
    // to the bucket (XMLHttpRequest, connect-src) and shown from it (img-src, media-src).
    // The bucket takes only signed requests (infra/local/emulators/s3-front.ts), as the app's presigned URLs are.
    const s3 = new S3Client({
      endpoint: world.runtime.s3Url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    });
    const object = { Bucket: world.runtime.bucketName, Key: `accounts/${team.owner.accountId}/files/csp-check.png` };
    const urls = {
      upload: await getSignedUrl(s3, new PutObjectCommand({ ...object, ContentType: 'image/png' }), { expiresIn: 300 }),
      media: await getSignedUrl(s3, new GetObjectCommand(object), { expiresIn: 300 }),
    };
    const outcome = await page.evaluate(async (url) => {
      const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
      const load = (el: HTMLImageElement | HTMLAudioElement, src: string) =>
        new Promise<string>((done) => {
          el.addEventListener(el instanceof HTMLImageElement ? 'load' : 'loadedmetadata', () => done('ok'));
          el.addEventListener('error', () => done('error'));
          el.src = src;
        });
      const bytes = new Blob([Uint8Array.from(atob(png.split(',')[1]!), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const results: Record<string, string> = {
        // The QR code of a WhatsApp connection is a PNG data URL.
        dataImage: await load(new Image(), png),
        // Files being sent are previewed from object URLs.
        blobImage: await load(new Image(), URL.createObjectURL(bytes)),
      };
      // The notification chime is a WAV data URL.
      const wav = new Uint8Array(46);
      const text = (o: number, s: string) =>
        wav.set(
          [...s].map((c) => c.charCodeAt(0)),
          o,
        );
      text(0, 'RIFF');
      text(8, 'WAVEfmt ');
      new DataView(wav.buffer).setUint32(16, 16, true);
      new DataView(wav.buffer).setUint16(20, 1, true);
      new DataView(wav.buffer).setUint16(22, 1, true);
      new DataView(wav.buffer).setUint32(24, 8000, true);
      new DataView(wav.buffer).setUint32(28, 16000, true);
      new DataView(wav.buffer).setUint16(32, 2, true);
      new DataView(wav.buffer).setUint16(34, 16, true);
      text(36, 'data');
      new DataView(wav.buffer).setUint32(40, 2, true);
      results.dataAudio = await load(new Audio(), `data:audio/wav;base64,${btoa(String.fromCharCode(...wav))}`);
      // Voice notes are played back from object URLs before they are sent.
      results.blobAudio = await load(new Audio(), URL.createObjectURL(new Blob([wav], { type: 'audio/wav' })));
      results.upload = await new Promise<string>((done) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', url.upload);
        xhr.setRequestHeader('Content-Type', 'image/png');
        xhr.onload = () => done(String(xhr.status));
        xhr.onerror = () => done('error');
        xhr.send(bytes);
      });
      results.mediaImage = await load(new Image(), url.media);
      return results;
    }, urls);
    expect(sockets).toContain('/ws');
    expect(outcome).toMatchObject({ dataImage: 'ok', blobImage: 'ok', dataAudio: 'ok', blobAudio: 'ok', upload: '200', mediaImage: 'ok' });
    expect([...(await recorded(page)), ...violations]).toEqual([]);
    await context.close();
  });

  it('blocks what it should: a script from elsewhere and an inline script it does not know', async () => {
    const context = await world.browser.newContext();
    const { page } = await watchedPage(context);
    await page.goto(`${siteUrl}/login`);
    await page.evaluate(() => {
      const inline = document.createElement('script');
      inline.textContent = 'window.__ran = true';
      document.head.append(inline);
      const remote = document.createElement('script');
      remote.src = 'https://cdn.example.com/x.js';
      document.head.append(remote);
    });
    await expect.poll(async () => (await recorded(page)).length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    await context.close();
  });
});

/**
 * The local static server (`npm start`'s web/dist) with the build's precompressed copies: each
 * client gets the coding it asks for, with the file's own cache headers and Vary: Accept-Encoding.
 * The copies are written by the Vite plugin's own function, over a real HTTP server on loopback.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedCodings } from '#lib/accept-encoding.ts';
import { serveStatic } from './static-site.ts';
import { precompressDirectory } from '../../../web/build/precompress.ts';

const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: 'Linha ${i}' }`).join(', ')}];\n`;
const shell = `<!doctype html><html lang="pt-BR"><head><title>Conversa</title></head><body>${'<p>Olá</p>'.repeat(200)}</body></html>`;
let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conversa-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Bx12abCd.js'), script);
  writeFileSync(join(dir, 'assets', 'tiny-Aa11bb22.js'), 'export {};\n');
  writeFileSync(join(dir, 'assets', 'inter-Cc33dd44.woff2'), Buffer.alloc(4096, 7));
  writeFileSync(join(dir, 'index.html'), shell);
  await precompressDirectory(dir);
  server = createServer((req, res) => void serveStatic(dir, req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body and hide Content-Encoding's effect on it). */
async function get(path: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the static server with precompressed files', () => {
  it('answers a hashed asset in Brotli when asked, with a year of immutable caching and Vary', async () => {
    const res = await get('/assets/index-Bx12abCd.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('answers gzip to a client without Brotli, and the file itself to one that takes neither', async () => {
    const gz = await get('/assets/index-Bx12abCd.js', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const plain = await get('/assets/index-Bx12abCd.js', header);
      expect(plain.headers['content-encoding'], header).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.body.toString()).toBe(script);
    }
  });

  it('compresses the shell too, which stays no-cache, also when it answers an app route', async () => {
    for (const path of ['/', '/index.html', '/inbox/01ABC']) {
      const res = await get(path, 'br');
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.body).toString()).toBe(shell);
    }
  });

  it('sends small files and fonts as they are, and no Vary on what never varies', async () => {
    const tiny = await get('/assets/tiny-Aa11bb22.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
    const font = await get('/assets/inter-Cc33dd44.woff2', 'br, gzip');
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.headers.vary).toBeUndefined();
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers HEAD with the headers of the variant GET would send', async () => {
    const headers = await new Promise<Record<string, unknown>>((resolve) => {
      request(`${base}/assets/index-Bx12abCd.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } }, (res) => {
        res.resume();
        resolve(res.headers);
      }).end();
    });
    const full = await get('/assets/index-Bx12abCd.js', 'br');
    expect(headers['content-encoding']).toBe('br');
    expect(headers['content-length']).toBe(String(full.body.length));
  });
});

describe('Accept-Encoding', () => {
  it('ranks Brotli before gzip at equal weight and follows q-values, * and q=0', () => {
    expect(acceptedCodings('gzip, deflate, br')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('br;q=0.5, gzip')).toEqual(['gzip', 'br']);
    expect(acceptedCodings('gzip;q=1.0, br; q=0')).toEqual(['gzip']);
    expect(acceptedCodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('*;q=0.1, gzip')).toEqual(['gzip', 'br']);
    expect(acceptedCodings('x-gzip')).toEqual(['gzip']);
    expect(acceptedCodings('identity')).toEqual([]);
    expect(acceptedCodings(undefined)).toEqual([]);
  });
});

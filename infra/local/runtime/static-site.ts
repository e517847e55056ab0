/**
 * Serves the built web app: a prerendered public page for its path, the app shell for the signed-in
 * app's paths (web/src/app/static-routes.ts, as CloudFront does), or a placeholder page when the
 * app is not built.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { htmlFileFor, shellFile } from '#web/app/static-routes.ts';
import { isCompressible, precompressedVariant } from './precompressed.ts';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const placeholder = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Conversa</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<h1>Conversa</h1><p>O aplicativo web ainda não foi compilado. Rode <code>npm start</code> para compilá-lo.</p></body></html>`;

async function fileAt(path: string) {
  try {
    const s = await stat(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const candidate = normalize(join(root, pathname));
  const inside = candidate === root || candidate.startsWith(root + sep);
  let file = inside ? candidate : undefined;
  let info = file ? await fileAt(file) : undefined;
  if (!info && !extname(pathname)) {
    // A build without prerendered pages (or a page the build has not written) falls back to the shell.
    file = join(root, htmlFileFor(pathname));
    info = await fileAt(file);
    if (!info) {
      file = join(root, shellFile);
      info = await fileAt(file);
    }
  }
  if (!info || !file) {
    if (!extname(pathname)) {
      res.writeHead(200, { 'content-type': types['.html']! }).end(placeholder);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Não encontrado');
    }
    return;
  }
  const immutable = file.includes(`${sep}assets${sep}`);
  // The build's .br/.gz copy when the client takes one (same cache headers as the file itself).
  const variant = isCompressible(file) ? await precompressedVariant(file, req.headers['accept-encoding']) : undefined;
  res.writeHead(200, {
    'content-type': types[extname(file)] ?? 'application/octet-stream',
    'content-length': variant?.size ?? info.size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    ...(isCompressible(file) ? { vary: 'Accept-Encoding' } : {}),
    ...(variant ? { 'content-encoding': variant.coding } : {}),
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(variant?.path ?? file).pipe(res);
}

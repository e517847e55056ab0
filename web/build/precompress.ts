/**
 * A Vite plugin that writes a Brotli (`.br`) and a gzip (`.gz`) copy next to every text file of the
 * build (JavaScript, CSS, HTML, SVG, JSON...), at the best ratio: the local server sends them as
 * they are (infra/local/runtime/precompressed.ts), so nothing is compressed per request. Small files stay
 * as they are: under 1 kB the headers cost more than compression saves.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const compressibleExtensions = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.xml']);
const minimumBytes = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Vite's manifest folder is build metadata, never served.
      if (entry.name !== '.vite') yield* filesUnder(path);
    } else if (compressibleExtensions.has(extname(entry.name))) yield path;
  }
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file of 1 kB or more under `dir`. */
export async function precompressDirectory(dir: string): Promise<number> {
  let count = 0;
  const jobs: Promise<void>[] = [];
  for await (const file of filesUnder(dir)) {
    if ((await stat(file)).size < minimumBytes) continue;
    count++;
    jobs.push(
      (async () => {
        const source = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          gz(source, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
      })(),
    );
  }
  await Promise.all(jobs);
  return count;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'conversa:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const count = await precompressDirectory(outDir);
      config.logger.info(`precompressed ${count} file(s) to .br and .gz`);
    },
  };
}

/**
 * Content negotiation for the local static server: the build writes a Brotli and a gzip copy next to
 * each text file (web/build/precompress.ts); a request whose Accept-Encoding takes one of them gets
 * it, with the matching Content-Encoding. Every answer that could have differed carries
 * `Vary: Accept-Encoding`, so caches keep the variants apart.
 */
import { stat } from 'node:fs/promises';
import { acceptedCodings, type Coding } from '#lib/accept-encoding.ts';

const suffixes: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/** The precompressed copy of `file` to send for this Accept-Encoding, if the build wrote one. */
export async function precompressedVariant(
  file: string,
  acceptEncoding: string | string[] | undefined,
): Promise<{ path: string; coding: Coding; size: number } | undefined> {
  for (const coding of acceptedCodings(acceptEncoding)) {
    const path = file + suffixes[coding];
    try {
      const info = await stat(path);
      if (info.isFile()) return { path, coding, size: info.size };
    } catch {
      /* no such variant: try the next */
    }
  }
  return undefined;
}

/** Whether the build may have written compressed copies of this file (so answers vary on Accept-Encoding). */
export function isCompressible(file: string): boolean {
  return /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml)$/.test(file);
}

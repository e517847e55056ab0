/**
 * Bundles the channel worker's cloud entry (`connectors/main.ts`) into one ESM file for its
 * container image (`connectors/Dockerfile` runs this; run it by hand to check the image's build:
 * `npm run build:worker && node .tmp/worker/main.mjs`).
 *
 * Everything is bundled, the AWS SDK and Baileys (with its inlined WebAssembly) included, so the
 * image needs no node_modules. External are only Baileys' optional peers, which it imports
 * lazily for features we do not use (thumbnails, link previews, audio waveforms; `.npmrc` keeps
 * them out of the install too), and ws's optional native speed-ups, which it tries in a try/catch.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

// --metafile <path> also writes esbuild's list of inputs (the infra test checks the image's build
// context holds every source file the entry reaches).
const { values } = parseArgs({ options: { outdir: { type: 'string', default: '.tmp/worker' }, metafile: { type: 'string' } } });
const root = resolve(import.meta.dirname, '..');
const outdir = resolve(values.outdir);

const optionalPeers = ['sharp', 'jimp', 'link-preview-js', 'audio-decode', 'bufferutil', 'utf-8-validate'];

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'connectors/main.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  external: optionalPeers,
  minify: true,
  // Stack traces keep the functions' names. The source map ships beside the bundle but is not
  // loaded by default: with --enable-source-maps Node parses it at the first stack it formats,
  // which took the process holding one session from 121 MB to 230 MB RSS. Set NODE_OPTIONS=--enable-source-maps on the
  // task to read stacks against the sources while debugging.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});

await mkdir(outdir, { recursive: true });
if (values.metafile) await writeFile(values.metafile, JSON.stringify(result.metafile));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`bundled connectors/main.ts into ${outdir} (${(bytes / 1e6).toFixed(1)} MB with source maps)`);

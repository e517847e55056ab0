/**
 * The local runtime as one esbuild bundle run by plain node: `npm start` (scripts/start.mjs) and the
 * tests' and benches' runtimes (tests/support/local-runtime.ts) run it instead of the TypeScript
 * sources through tsx, whose loader kept every transformed module and its source map in threads of
 * its own (ADR-0136).
 *
 * Entries are what the runtime starts or loads by path: its entry, its worker threads' (DynamoDB, handlers), the
 * tests' runtimes on channel doubles, and every handler module of the HTTP (webhooks included) and WebSocket gateways
 * and of the stream and queue emulators. Code they share is split into chunks, so each module is
 * loaded once, and a lazy `import()` (Baileys' session code) stays lazy. npm packages are not bundled:
 * node loads them from node_modules as before. Output mirrors the sources' tree
 * (infra/local/runtime/runtime-modules.ts finds handlers there by path), under `.tmp/runtime/<hash of the
 * output>/`: a rebuild never rewrites the files of a runtime already running, and two processes
 * building the same sources at once write the same folder, each file through a rename.
 *
 * `ensureRuntimeBundle()` builds when the bundle is missing or older than a source it holds (the
 * inputs esbuild listed at the last build), and answers the bundle's folder; `npm run build:runtime`
 * does the same from the command line.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const bundlesDir = join(root, '.tmp', 'runtime');
const currentFile = join(bundlesDir, 'current.json');
/** Files that shape the build without being one of its inputs. */
const buildFiles = ['scripts/runtime-bundle.mjs', 'package.json', 'tsconfig.json'];
/** Bundles kept besides the current one (for runtimes still running from them). */
const keptBundles = 2;

/** The bundle's entries, by output name (the source path without its extension). */
function entries() {
  const handlers = ['functions/http', 'functions/webhooks', 'functions/ws', 'functions/streams', 'functions/queues'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
      .map((file) => join(dir, file)),
  );
  const files = [
    'infra/local/runtime/main.ts',
    'infra/local/emulators/dynamo-worker.ts',
    'tests/support/runtime-with-double.ts',
    'tests/support/runtime-with-whatsapp-double.ts',
    ...handlers,
  ];
  return Object.fromEntries(files.sort().map((file) => [file.replace(/\.ts$/, ''), file]));
}

function readCurrent() {
  try {
    return JSON.parse(readFileSync(currentFile, 'utf8'));
  } catch {
    return undefined;
  }
}

function isStale(current, entryPoints) {
  if (!current || !existsSync(join(bundlesDir, current.build, '.complete'))) return true;
  if (JSON.stringify(Object.keys(entryPoints)) !== JSON.stringify(current.entries)) return true;
  return [...current.inputs, ...buildFiles].some((file) => {
    const path = join(root, file);
    return !existsSync(path) || statSync(path).mtimeMs > current.builtAt;
  });
}

/** Writes a file through a rename, so a reader never sees it half written. */
function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

async function buildBundle(entryPoints) {
  // Before esbuild reads anything: a source saved during the build makes the next start rebuild.
  const builtAt = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: join(bundlesDir, 'out'),
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Stack traces read against the sources with NODE_OPTIONS=--enable-source-maps; the maps are not loaded otherwise.
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const outputs = result.outputFiles.map((file) => ({ path: relative(join(bundlesDir, 'out'), file.path), contents: file.contents }));
  const hash = createHash('sha256');
  for (const output of outputs) hash.update(output.path).update('\0').update(output.contents);
  const id = hash.digest('hex').slice(0, 12);
  const dir = join(bundlesDir, id);
  if (!existsSync(join(dir, '.complete'))) {
    for (const output of outputs) writeAtomically(join(dir, output.path), output.contents);
    writeAtomically(join(dir, '.complete'), '');
  }
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  writeAtomically(currentFile, JSON.stringify({ build: id, builtAt, entries: Object.keys(entryPoints), inputs }));
  prune(id);
  return dir;
}

/** Removes all but the newest few earlier bundles. */
function prune(current) {
  const earlier = readdirSync(bundlesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current && entry.name !== 'out')
    .map((entry) => ({ path: join(bundlesDir, entry.name), at: statSync(join(bundlesDir, entry.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of earlier.slice(keptBundles)) rmSync(path, { recursive: true, force: true });
}

/** Builds the runtime's bundle if it is missing or stale; answers its folder. */
export async function ensureRuntimeBundle() {
  const entryPoints = entries();
  const current = readCurrent();
  if (!isStale(current, entryPoints)) return join(bundlesDir, current.build);
  const started = performance.now();
  const dir = await buildBundle(entryPoints);
  console.log(`> runtime bundle built in ${Math.round(performance.now() - started)} ms (${relative(root, dir)})`);
  return dir;
}

/**
 * How `npm start` and the tests' runtimes run an entry of the bundle ('infra/local/runtime/main'): node's
 * arguments and what the environment adds (the caller's own environment wins).
 * - Source maps on: stack traces name the sources' files and lines. They cost a few MB (small maps,
 *   no sources' text in them; ADR-0146).
 * - Two malloc arenas instead of glibc's eight per core: the runtime's threads (the database
 *   worker, V8's and libuv's) otherwise each keep freed native memory resident (ADR-0136; about 25-35 MB here).
 * - A young generation of 2 × 2 MB for the main thread instead of V8's 2 × 16, for the memory goal
 *   (ADR-0136); the runtime clears the flag before its DynamoDB thread starts, which keeps its own
 *   size. With the API's reads back on the main thread the reads stayed within the noise, and peak
 *   RSS without the V8 flags rose to 490-602 MB (ADR-0197).
 */
export function runtimeCommand(bundleDir, entry) {
  return { args: ['--enable-source-maps', '--max-semi-space-size=2', join(bundleDir, `${entry}.mjs`)], env: { MALLOC_ARENA_MAX: '2' } };
}

if (process.argv[1] === import.meta.filename) await ensureRuntimeBundle();

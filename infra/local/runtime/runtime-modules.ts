/**
 * Where the local runtime finds the repository and the modules it loads by path (the handlers its
 * gateways and emulators call, the worker threads' entries). `npm start` and the tests'
 * runtimes run the esbuild bundle `scripts/runtime-bundle.mjs` builds under `.tmp/runtime/<build>/`,
 * whose tree mirrors the sources' (`functions/http/contacts/list.ts` is
 * `.tmp/runtime/<build>/functions/http/contacts/list.mjs`); Vitest and `npm run serve` run the
 * sources themselves. Which one this is follows from where this module's own code lies.
 */
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const bundleMark = `${sep}.tmp${sep}runtime${sep}`;
const at = here.lastIndexOf(bundleMark);

/** The repository's root folder. */
export const root = at >= 0 ? here.slice(0, at) : resolve(dirname(here), '../../..');

/** The folder of the bundle this code runs from, or none when it runs from the sources. */
const bundleDir = at >= 0 ? join(root, '.tmp', 'runtime', here.slice(at + bundleMark.length).split(sep)[0]!) : undefined;

/** The file of a runtime module named by its source path without extension ('functions/http/contacts/list'). */
export function runtimeModuleFile(path: string): string {
  return bundleDir ? join(bundleDir, `${path}.mjs`) : join(root, `${path}.ts`);
}

/** The URL to `import()` a runtime module named as in `runtimeModuleFile`. */
export function runtimeModuleUrl(path: string): string {
  return pathToFileURL(runtimeModuleFile(path)).href;
}

/**
 * The DynamoDB thread's entry ('emulators/dynamo-worker'): bundled, the module itself; from the
 * sources, a plain `.mjs` beside it that registers tsx in the thread first (Node 20 does not carry
 * the loader into worker threads).
 */
export function threadEntry(name: 'emulators/dynamo-worker'): URL {
  return pathToFileURL(bundleDir ? join(bundleDir, `infra/local/${name}.mjs`) : join(root, `infra/local/${name}-entry.mjs`));
}

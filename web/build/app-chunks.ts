/**
 * The signed-in app's shared code in a few chunks rather than dozens. Left to itself the bundler
 * gives every set of pages sharing a module a chunk of its own: /inbox fetched 45 files, most of a
 * kilobyte (an icon, a query hook, a contract), and over the six HTTP/1.1 connections a phone opens
 * to an origin those queue up for eight round trips before the page's first request can start
 * (Lighthouse's simulated 4G puts the list's text at 5 s; ADR-0160). This names a module
 * `app` when only the signed-in screens reach it (its static importers lead to no root but theirs),
 * and the group, split by the set of screens using each module (`entriesAware`), merges the small
 * parts into their nearest neighbour. What a public page or the boot chunk reaches is left alone,
 * so the landing and the sign-in screens load exactly what they did, but for the icons shared
 * beyond the signed-in screens and the plans' figures, gathered in one `shared` chunk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type ModuleInfo = { importers: string[]; dynamicImporters: string[]; isEntry: boolean };
type Context = { getModuleInfo(id: string): ModuleInfo | null };

/** The signed-in screens' roots: their pages, the chunks those fetch later, the first data's prefetch. */
const appRoot = /[\\/]web[\\/]src[\\/](app[\\/]routes[\\/]app[\\/]|app[\\/]route-data\.ts$|features[\\/](?!auth[\\/]|marketing[\\/]))/;

/** TanStack Query, whole: every screen that talks to the API uses most of it. */
const queryLibrary = /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/;
/** Small modules many screens share: icons, API calls and hooks, the app's helpers. */
const shared = /[\\/]lucide-react[\\/].*[\\/]icons[\\/]|[\\/]web[\\/]src[\\/](api|lib|features[\\/][^\\/]+[\\/]api)[\\/]/;
/** Tiny modules the public pages' later chunks share with others: the icons, the plans' figures. */
const publicShared = /[\\/]lucide-react[\\/].*[\\/]icons[\\/]|[\\/]shared[\\/]contracts[\\/]plans\.ts$/;

const webSrc = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Source files of the web app, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The lucide icon files (`circle-check`) that code outside the signed-in screens imports: the
 * landing, the sign-in screens, the shared UI, the boot. Every icon module's importer is lucide's
 * one index module, which public pages import too, so the module graph cannot tell an icon only the
 * signed-in screens use; the sources can. The rest go with the signed-in screens' chunks, so the
 * public pages' `shared` chunk does not grow with every icon two screens share.
 */
function publicIconFiles(): Set<string> {
  const index = readFileSync(
    createRequire(import.meta.url)
      .resolve('lucide-react')
      .replace(/[\\/]dist[\\/]cjs[\\/].*$/, '/dist/esm/lucide-react.mjs'),
    'utf8',
  );
  const fileOf = new Map<string, string>();
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([^']+)\.mjs';/g)) {
    for (const name of names!.split(',')) fileOf.set(name.replace(/^\s*default as\s+/, '').trim(), file!);
  }
  const files = new Set<string>();
  for (const source of sourceFiles(webSrc)) {
    if (appRoot.test(source)) continue;
    const text = readFileSync(source, 'utf8');
    for (const [, names] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'lucide-react'/g)) {
      for (const name of names!.split(',')) {
        const file = fileOf.get(
          name
            .replace(/^\s*type\s+/, '')
            .split(/\s+as\s+/)[0]!
            .trim(),
        );
        if (file) files.add(file);
      }
    }
  }
  return files;
}

const iconFile = /[\\/]lucide-react[\\/].*[\\/]icons[\\/]([^\\/]+)\.m?js$/;

export function appChunkName(): (id: string, ctx: Context) => string | null {
  const publicIcons = publicIconFiles();
  const onlyApp = new Map<string, boolean>();
  const visit = (id: string, ctx: Context, path: Set<string>): boolean => {
    const known = onlyApp.get(id);
    if (known !== undefined) return known;
    if (path.has(id)) return true; // a cycle: decided by the rest of the paths
    const info = ctx.getModuleInfo(id);
    if (!info) return false;
    path.add(id);
    // A root (an entry, or a module something imports dynamically) counts as what it is.
    const isRoot = info.isEntry || info.dynamicImporters.length > 0;
    let result = (!isRoot || appRoot.test(id)) && (isRoot || info.importers.length > 0);
    for (const importer of info.importers) {
      if (!result) break;
      result = visit(importer, ctx, path);
    }
    path.delete(id);
    onlyApp.set(id, result);
    return result;
  };
  return (id, ctx) => {
    if (queryLibrary.test(id)) return 'query';
    const info = ctx.getModuleInfo(id);
    // A screen's own chunk stays its own, and so does its own code (its components).
    if (!info || info.isEntry || info.dynamicImporters.length > 0) return null;
    // An icon no public source imports is the signed-in screens' (see publicIconFiles).
    const icon = iconFile.exec(id)?.[1];
    if (icon && !publicIcons.has(icon)) return 'app';
    if (shared.test(id) && visit(id, ctx, new Set())) return 'app';
    // The icons and the plans' figures shared beyond the signed-in screens (a few hundred bytes each)
    // in one file rather than a request apiece: the landing's lower part fetched six, /inbox eleven
    // icons, each costing more in headers than in code. Those only the boot chunk uses stay in it
    // (the group takes a module two chunks share), so the landing's first JavaScript does not grow.
    return publicShared.test(id) ? 'shared' : null;
  };
}

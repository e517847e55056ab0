/**
 * The direction of imports (docs/architecture.md): connectors/ and functions/ point into shared/,
 * never the other way; the domain owns its ports, so no handler or domain file reaches a channel
 * adapter. In web/src, a feature imports no other feature, and nothing below the app (features,
 * components, lib, api, config) imports web/src/app.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every module a file imports, as written, with relative paths resolved against the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    return spec.startsWith('.') ? relative(root, resolve(root, file, '..', spec)) : spec;
  });
}

function offenders(files: string[], forbidden: (spec: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((spec) => `${file} → ${spec}`),
  );
}

/** A web module's imports as project paths (`#web/x` is web/src/x). */
const webImportsOf = (file: string) => importsOf(file).map((spec) => spec.replace(/^#web\//, 'web/src/'));

const featureOf = (path: string) => /^web\/src\/features\/([^/]+)\//.exec(path)?.[1];

/**
 * Known exceptions to the web rules, each with its reason. A line here that no longer matches an
 * import fails the test, so the list only shrinks.
 */
const webAllowed: Record<string, string> = {
  'web/src/features/inbox/components/contact-list.test.tsx → web/src/app/realtime-sync.ts':
    'a test of the contact list fed by the app-level realtime sync, as the running app feeds it; the production module imports nothing from app/',
  'web/src/features/inbox/components/contact-list-filters.test.tsx → web/src/app/realtime-sync.ts':
    'a test of the list filters fed by the app-level realtime sync, as the running app feeds it; the production module imports nothing from app/',
};

const above = (spec: string) => /^(#connectors\/|#functions\/|#lib\/|connectors\/|functions\/|infra\/|web\/)/.test(spec);

describe('import boundaries', () => {
  it('shared/ imports nothing from connectors/, functions/, infra/ or web/', () => {
    expect(offenders(sources('shared'), above)).toEqual([]);
  });

  it('no handler imports a channel adapter: they reach channels through the ports', () => {
    const handlers = [...sources('functions/http'), ...sources('functions/streams'), ...sources('functions/webhooks'), ...sources('functions/ws')];
    expect(offenders(handlers, (spec) => /^(#connectors\/|connectors\/)/.test(spec))).toEqual([]);
  });

  it('adapters are registered in one place for the functions and one for the worker, and production code never picks a test double', () => {
    const product = [...sources('functions'), ...sources('connectors'), ...sources('shared'), ...sources('infra')].filter((f) => !f.endsWith('.test.ts'));
    // An adapter's own folder may build on its adapter (the worker's WhatsApp adapter extends the functions' one).
    const registering = product.filter((file) =>
      importsOf(file).some((spec) => {
        const adapter = /^(?:#connectors\/|connectors\/)([^/]+)\/adapter\.ts$/.exec(spec);
        return adapter && !file.startsWith(`connectors/${adapter[1]}/`);
      }),
    );
    expect(registering.sort()).toEqual(['connectors/worker-channels.ts', 'functions/lib/channels.ts']);
    expect(offenders(product, (spec) => spec.startsWith('tests/'))).toEqual([]);
  });

  it('sending is business rules only: the dispatcher and the send-queue port import no AWS SDK (table writes live in shared/db)', () => {
    const files = ['shared/domain/messages/dispatch.ts', 'shared/domain/messages/outbound-queue.ts'];
    expect(offenders(files, (spec) => spec.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('one channel adapter does not reach into another', () => {
    const adapters = readdirSync(join(root, 'connectors')).filter((name) => statSync(join(root, 'connectors', name)).isDirectory());
    for (const adapter of adapters) {
      const others = adapters.filter((other) => other !== adapter);
      const bad = offenders(sources(join('connectors', adapter)), (spec) => others.some((other) => spec.includes(`connectors/${other}/`)));
      expect(bad).toEqual([]);
    }
  });

  describe('web/src', () => {
    const web = sources('web/src');
    const found = (rule: (file: string, spec: string) => boolean) =>
      web.flatMap((file) =>
        webImportsOf(file)
          .filter((spec) => rule(file, spec))
          .map((spec) => `${file} → ${spec}`),
      );
    const crossFeature = found((file, spec) => {
      const from = featureOf(file);
      const to = featureOf(spec);
      return from !== undefined && to !== undefined && from !== to;
    });
    const intoApp = found((file, spec) => /^web\/src\/(features|components|lib|api|config)\//.test(file) && spec.startsWith('web/src/app/'));

    it('a feature imports nothing from another feature (shared pieces live in components/, lib/ or api/)', () => {
      expect(crossFeature.filter((line) => !(line in webAllowed))).toEqual([]);
    });

    it('nothing below the app (features, components, lib, api, config) imports web/src/app', () => {
      expect(intoApp.filter((line) => !(line in webAllowed))).toEqual([]);
    });

    it('every allowed exception still exists and says why', () => {
      const current = new Set([...crossFeature, ...intoApp]);
      for (const [line, reason] of Object.entries(webAllowed)) {
        expect(current.has(line), line).toBe(true);
        expect(reason.length).toBeGreaterThan(20);
      }
    });

    it('the rules see the imports: features import shared web modules through #web/', () => {
      expect(webImportsOf('web/src/features/inbox/components/contact-list.test.tsx')).toContain('web/src/app/realtime-sync.ts');
    });
  });
});

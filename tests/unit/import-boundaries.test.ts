/**
 * The direction of imports (ARCHITECTURE.md): connectors/ and functions/ point into shared/, never
 * the other way; the domain owns its ports, so no handler or domain file reaches a channel adapter.
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
});

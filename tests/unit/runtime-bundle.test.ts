/**
 * The local runtime's bundle (scripts/runtime-bundle.mjs) holds every module the runtime loads by
 * path, where infra/local/runtime/runtime-modules.ts looks for it, and its start does not load Baileys (only
 * a WhatsApp session's lazy import does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpRoutes } from '#functions/http/routes.ts';
import { queueConsumers } from '#functions/queues/consumers.ts';
import { streamConsumers } from '#functions/streams/consumers.ts';
import { webSocketRoutes } from '#functions/ws/routes.ts';
import { ensureRuntimeBundle } from '../../scripts/runtime-bundle.mjs';

/** Every file `file` imports statically, itself included, within the bundle; and the packages they import. */
function staticGraph(file: string, files = new Set<string>(), packages = new Set<string>()) {
  if (files.has(file)) return { files, packages };
  files.add(file);
  const source = readFileSync(file, 'utf8');
  // Static imports only: `import ... from "x"` and `import "x"`, not `import("x")`.
  for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?["']([^"']+)["'];?$/gms)) {
    if (specifier!.startsWith('.')) staticGraph(resolve(dirname(file), specifier!), files, packages);
    else packages.add(specifier!);
  }
  return { files, packages };
}

describe('runtime bundle', () => {
  it('holds every handler the gateways and emulators load by path', { timeout: 60_000 }, async () => {
    const bundle = await ensureRuntimeBundle();
    const modules = [
      ...httpRoutes.map((r) => `functions/http/${r.handler}`),
      ...webSocketRoutes.map((r) => `functions/ws/${r.handler}`),
      ...streamConsumers.map((c) => `functions/streams/${c.handler}`),
      ...queueConsumers.map((c) => `functions/queues/${c.handler}`),
      'infra/local/runtime/main',
      'infra/local/emulators/dynamo-worker',
      'tests/support/runtime-with-double',
      'tests/support/runtime-with-whatsapp-double',
    ];
    expect(modules.filter((m) => !existsSync(join(bundle, `${m}.mjs`)))).toEqual([]);
  });

  it('starts without loading Baileys', { timeout: 60_000 }, async () => {
    const bundle = await ensureRuntimeBundle();
    const { files, packages } = staticGraph(join(bundle, 'infra/local/runtime/main.mjs'));
    expect(files.size).toBeGreaterThan(1);
    expect(packages.has('node:path')).toBe(true);
    expect(packages.has('baileys')).toBe(false);
  });
});

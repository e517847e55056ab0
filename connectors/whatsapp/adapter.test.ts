/** The adapter is registered in every function (functions/lib/channels.ts); Baileys must not come with it. */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the WhatsApp adapter module', () => {
  it('loads no Baileys code until a session opens (the functions that only send or stop do not pay for it)', async () => {
    const entry = 'connectors/whatsapp/adapter.ts';
    const { metafile } = await build({
      entryPoints: [entry],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      write: false,
      metafile: true,
      outdir: 'out',
      logLevel: 'silent',
    });
    const loadedAtOnce = new Set<string>();
    const walk = (output: string) => {
      const chunk = metafile.outputs[output]!;
      for (const input of Object.keys(chunk.inputs)) loadedAtOnce.add(input);
      for (const imported of chunk.imports) if (imported.kind === 'import-statement' && metafile.outputs[imported.path]) walk(imported.path);
    };
    walk(Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === entry)![0]);
    const all = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));

    expect([...loadedAtOnce].filter((input) => input.includes('node_modules/baileys/'))).toEqual([]);
    expect([...loadedAtOnce]).not.toContain('connectors/whatsapp/session.ts');
    // The session, and Baileys with it, are in the bundle: loaded when the first session opens.
    expect(all).toContain('connectors/whatsapp/session.ts');
    expect(all.some((input) => input.includes('node_modules/baileys/'))).toBe(true);
  });
});

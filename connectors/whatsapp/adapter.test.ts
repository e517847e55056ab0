/**
 * The light adapter is registered in every function (functions/lib/channels.ts); Baileys must not
 * come with it, not even as a chunk loaded later: the functions' bundles carry none of it.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function bundledInputs(entry: string): Promise<string[]> {
  const { metafile } = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', write: false, metafile: true, logLevel: 'silent' });
  return Object.keys(metafile.inputs);
}

describe('the WhatsApp adapter modules', () => {
  it("the functions' adapter bundles no Baileys code and no session", async () => {
    const inputs = await bundledInputs('connectors/whatsapp/adapter.ts');
    expect(inputs.filter((input) => input.includes('node_modules/baileys/'))).toEqual([]);
    expect(inputs).not.toContain('connectors/whatsapp/session.ts');
  });

  it("the worker's adapter bundles the session and Baileys", async () => {
    const inputs = await bundledInputs('connectors/whatsapp/worker-adapter.ts');
    expect(inputs).toContain('connectors/whatsapp/session.ts');
    expect(inputs.some((input) => input.includes('node_modules/baileys/'))).toBe(true);
  });
});

/**
 * The account export's last step (ADR-0186): the archive is the parts in order, written through the
 * bucket's multipart upload (`putStream`, one 5 MiB part in memory at a time) while the parts are
 * read a few at a time, never all at once. It used to read every part with one Promise.all and PutObject
 * their concatenation, so an account of gigabytes needed gigabytes of a 512 MB function.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { AccountExportItem } from '#db/account-exports.ts';
import { exportObjectKey, keys } from '#db/keys.ts';
import { composeReadAhead, runExportStep } from './account-export.ts';
import type { Ports, Storage } from '#domain/ports.ts';

const accountId = 'A1';
const exportId = 'E1';
const partKey = (n: number) => exportObjectKey(accountId, exportId, `part-${String(n).padStart(6, '0')}.jsonl`);

function harness(parts: number) {
  const job = {
    ...keys.accountExport(accountId, exportId),
    type: 'AccountExport',
    id: exportId,
    accountId,
    requestedBy: 'U1',
    status: 'running',
    phase: 'compose',
    cursor: null,
    contactSk: null,
    parts,
    lines: parts,
    round: 0,
    createdAt: '2026-11-01T00:00:00.000Z',
  } as unknown as AccountExportItem;
  const updates: Record<string, unknown>[] = [];
  const objects = new Map<string, Uint8Array>();
  for (let n = 1; n <= parts; n++) objects.set(partKey(n), new TextEncoder().encode(`{"part":${n}}\n`));
  let reading = 0;
  let mostReadAtOnce = 0;
  const written: { key: string; text: string; via: 'put' | 'putStream' }[] = [];
  const storage = {
    async get(key: string) {
      reading++;
      mostReadAtOnce = Math.max(mostReadAtOnce, reading);
      await new Promise((resolve) => setTimeout(resolve, 1));
      reading--;
      const bytes = objects.get(key);
      if (!bytes) throw new Error(`no object ${key}`);
      return bytes;
    },
    async put(key: string, bytes: Uint8Array) {
      written.push({ key, text: new TextDecoder().decode(bytes), via: 'put' });
    },
    async putStream(key: string, body: AsyncIterable<Uint8Array>) {
      let text = '';
      let size = 0;
      for await (const chunk of body) {
        text += new TextDecoder().decode(chunk);
        size += chunk.byteLength;
      }
      written.push({ key, text, via: 'putStream' });
      return { size };
    },
    async list(prefix: string) {
      return [...objects.keys()].filter((key) => key.startsWith(prefix));
    },
    async remove(removed: readonly string[]) {
      for (const key of removed) objects.delete(key);
    },
  } as unknown as Storage;
  const table = {
    name: 'T',
    doc: {
      send: async (command: unknown) => {
        if (command instanceof GetCommand) return { Item: job };
        if (command instanceof UpdateCommand) {
          updates.push(command.input.ExpressionAttributeValues ?? {});
          return {};
        }
        throw new Error(`unexpected ${String(command)}`);
      },
    },
  };
  const ports = { table, storage, clock: () => new Date('2026-11-01T00:01:00.000Z') } as unknown as Ports;
  return { ports, written, updates, objects, mostReadAtOnce: () => mostReadAtOnce };
}

describe('the export archive', () => {
  it('is the parts in order, streamed through a multipart upload, reading a few parts at a time, and the parts are removed', async () => {
    const parts = 200;
    const h = harness(parts);
    await runExportStep(h.ports, accountId, exportId);
    const archive = h.written.filter((w) => w.key === exportObjectKey(accountId, exportId, 'conversa-dados.jsonl'));
    expect(archive).toHaveLength(1);
    expect(archive[0]!.via).toBe('putStream');
    expect(archive[0]!.text).toBe(Array.from({ length: parts }, (_, i) => `{"part":${i + 1}}\n`).join(''));
    expect(h.mostReadAtOnce()).toBeGreaterThan(1);
    expect(h.mostReadAtOnce()).toBeLessThanOrEqual(composeReadAhead);
    expect([...h.objects.keys()].filter((key) => key.includes('part-'))).toEqual([]);
    expect(JSON.stringify(h.updates)).toContain('"done"');
  });
});

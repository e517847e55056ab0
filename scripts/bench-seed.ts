/**
 * What the benchmarks share: their table, opened on dynalite in the runtime's data folder before
 * the runtime starts, the owner they seed into it, and the summary of their timings.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { ulid } from 'ulid';
import { scryptPasswords } from '../functions/lib/scrypt-passwords.ts';
import { entityTypes, keys } from '../shared/db/keys.ts';
import { createTableInput } from '../shared/db/table-definition.ts';
import { newUserItem } from '../shared/db/users.ts';

/** The runtime's table, made straight in dynalite under `dataDir`; `close` before the runtime starts on it. */
export async function openSeedTable(dataDir: string, tableName: string): Promise<{ doc: DynamoDBDocumentClient; close: () => Promise<void> }> {
  const db = dynalite({ path: join(dataDir, 'dynamo'), createTableMs: 0 });
  await new Promise<void>((r) => db.listen(0, '127.0.0.1', () => r()));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(db.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await new Promise((r) => setTimeout(r, 100));
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  return { doc, close: () => new Promise<void>((r) => db.close(() => r())) };
}

/** The owner the benchmarks seed: a verified admin, and the guard of their e-mail. */
export async function benchOwnerItems(accountId: string, email: string, password: string, now: string): Promise<Record<string, unknown>[]> {
  const user = newUserItem({ id: ulid(), name: 'Dona Bench', email, accountId, passwordHash: await scryptPasswords().hash(password), isAdmin: true }, now);
  return [
    { ...user, isOwner: true, emailVerified: true },
    { ...keys.userEmail(accountId, email), type: entityTypes.userEmail },
  ];
}

/** Count, p50, p95 and max of a list of timings, in ms with two decimals. */
export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { n: sorted.length, p50: +at(50).toFixed(2), p95: +at(95).toFixed(2), max: +sorted[sorted.length - 1]!.toFixed(2) };
}

/** A benchmark's own section of bench/results.md, between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`. */
const sections = /<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->\n?/g;

/** The marked sections of a results page (what another benchmark wrote there), to keep when rewriting it. */
export function keptSections(page: string): string {
  const kept = [...page.matchAll(sections)].map(([section]) => section.trimEnd());
  return kept.length ? `\n${kept.join('\n\n')}\n` : '';
}

/** The page with the named section replaced by `body` (or added at the end). */
export function withSection(page: string, name: string, body: string): string {
  const section = `<!-- bench:${name} -->\n${body.trim()}\n<!-- /bench:${name} -->\n`;
  const own = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->\\n?`);
  return own.test(page) ? page.replace(own, section) : `${page.trimEnd()}\n\n${section}`;
}

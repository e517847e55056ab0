/** Where the generated OpenAPI document is kept and how it is written (ADR-0238). */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const openApiFile = new URL('../../web/src/features/marketing/api-reference/openapi.json', import.meta.url);

/** Writes the document as JSON, laid out by the repository's formatter (biome). */
export async function writeDocument(document: unknown): Promise<void> {
  await writeFile(openApiFile, `${JSON.stringify(document, null, 2)}\n`);
  execFileSync('npx', ['biome', 'format', '--write', fileURLToPath(openApiFile)], { stdio: 'ignore' });
}

/** The committed document, parsed. */
export async function readDocument(): Promise<unknown> {
  return JSON.parse(await readFile(openApiFile, 'utf8'));
}

/** The API's version: the package's. */
export async function packageVersion(): Promise<string> {
  const json = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return json.version;
}

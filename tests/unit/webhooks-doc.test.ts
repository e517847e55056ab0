/**
 * The verification samples of docs/webhooks.md run against deliveries signed by the product's own
 * `signWebhookPayload`, so the documentation cannot drift from the signature: the Node.js function
 * is imported, the Node.js receiver is started and posted to, and the Python function is run by
 * python3 where the machine has it (skipped, and said so, where it has not).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from '#domain/webhooks/webhook-signature.ts';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');

/** The fenced blocks of `language` in the section under `heading` (up to the next heading). */
function blocks(heading: string, language: string): string[] {
  const start = doc.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/webhooks.md has no "${heading}"`);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

const node = blocks('### Verifying in Node.js', 'js');
const python = blocks('### Verifying in Python', 'python');
const dir = mkdtempSync(join(tmpdir(), 'webhooks-doc-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const secret = 'whsec_doc_test';
const body = '{"id":"01JDOC","type":"message.created","data":{"text":"Olá, São Paulo! 👋"}}';

/** Deliveries and whether each is genuine, signed by the product's code at the real now. */
function cases() {
  const now = Math.floor(Date.now() / 1000);
  const good = signWebhookPayload(secret, now, body);
  const rotated = `${signWebhookPayload('whsec_old', now, body)},${good.split(',')[1]}`;
  const list: { name: string; body: string; header: string | undefined; genuine: boolean }[] = [
    { name: 'signed now', body, header: good, genuine: true },
    { name: 'two v1 during a rotation', body, header: rotated, genuine: true },
    { name: 'another body', body: body.replace('Olá', 'Ola'), header: good, genuine: false },
    { name: 'another secret', body, header: signWebhookPayload('whsec_other', now, body), genuine: false },
    { name: 'an hour old', body, header: signWebhookPayload(secret, now - 3600, body), genuine: false },
    { name: 'no header', body, header: undefined, genuine: false },
    { name: 'no timestamp', body, header: good.split(',')[1]!, genuine: false },
    { name: 'garbage', body, header: 'nada=disso', genuine: false },
  ];
  // The product's own check agrees with every expectation (the samples are judged against it).
  for (const c of list) expect(verifyWebhookSignature(secret, c.header, c.body, now), c.name).toBe(c.genuine);
  return list;
}

describe('the Node.js sample in docs/webhooks.md', () => {
  it('has the function and the receiver', () => {
    expect(node).toHaveLength(2);
    expect(node[0]).toContain('export function verifyConversaSignature');
    expect(node[0]).toContain('timingSafeEqual');
  });

  it('verifies genuine deliveries and refuses the others, from a Buffer or a string', async () => {
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, node[0]!);
    const sample = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      verifyConversaSignature: (rawBody: Buffer | string, header: string | undefined, secret: string) => boolean;
    };
    for (const c of cases()) {
      expect(sample.verifyConversaSignature(Buffer.from(c.body, 'utf8'), c.header, secret), c.name).toBe(c.genuine);
      expect(sample.verifyConversaSignature(c.body, c.header, secret), c.name).toBe(c.genuine);
    }
  });

  it('runs as a receiver that answers 204 to a signed delivery and 400 to a forged one', async () => {
    const file = join(dir, 'receiver.mjs');
    writeFileSync(file, `${node[0]}\n${node[1]}`);
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, PORT: '0', CONVERSA_WEBHOOK_SECRET: secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const port = await new Promise<number>((done, fail) => {
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const match = /listening on (\d+)/.exec(out);
        if (match) done(Number(match[1]));
      });
      child.on('exit', (code) => fail(new Error(`the receiver exited with ${code}`)));
    });
    const deliver = (header: string | undefined, payload: string) =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(header ? { 'conversa-signature': header } : {}) },
        body: payload,
      }).then((response) => response.status);
    for (const c of cases()) expect(await deliver(c.header, c.body), c.name).toBe(c.genuine ? 204 : 400);
  });
});

const python3 = spawnSync('python3', ['--version']).status === 0;

describe('the Python sample in docs/webhooks.md', () => {
  it('is one function', () => {
    expect(python).toHaveLength(1);
    expect(python[0]).toContain('def verify_conversa_signature');
    expect(python[0]).toContain('hmac.compare_digest');
  });

  // python3 is optional on a developer's machine; without it only the Node.js samples run.
  it.skipIf(!python3)('verifies genuine deliveries and refuses the others (python3)', () => {
    const list = cases();
    const harness = `${python[0]}
import base64, json, sys
results = []
for c in json.load(sys.stdin):
    results.append(verify_conversa_signature(base64.b64decode(c["body"]), c["header"], ${JSON.stringify(secret)}))
print(json.dumps(results))
`;
    const file = join(dir, 'verify.py');
    writeFileSync(file, harness);
    const run = spawnSync('python3', [file], {
      input: JSON.stringify(list.map((c) => ({ body: Buffer.from(c.body, 'utf8').toString('base64'), header: c.header ?? null }))),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(list.map((c) => c.genuine));
  });
});

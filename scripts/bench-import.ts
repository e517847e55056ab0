/**
 * `npm run bench:import`: a contact import of 50,000 rows (ADR-0223) through a local
 * runtime of its own (a child process, as `npm start` runs it): a Windows-1252 ';' CSV as Excel in
 * Brazil saves it is uploaded, checked and imported by the stepped job. Prints each pass's time and
 * rows a second, and the runtime process's resident memory before and at its peak (VmHWM): the file
 * is read a range at a time, so the peak must not grow with the file. Not a test: run by hand.
 *
 *   npm run bench:import [-- rows]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ContactImport } from '#contracts/contact-imports.ts';
import { keys } from '#db/keys.ts';
import { spawnLocalRuntime } from '../tests/support/local-runtime.ts';

const rows = Number(process.argv[2] ?? 50_000);

/** The local runtime's process (this process's child running its entry; esbuild's service is another child): its pid from /proc. */
function childPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('infra/local/runtime/main')) return Number(entry);
    } catch {
      // A process that ended meanwhile.
    }
  }
  throw new Error('no runtime process');
}

/** A /proc status field in MB (VmRSS now, VmHWM the peak so far). */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

function csv(count: number): Buffer {
  const lines = ['Nome;Celular;E-mail;Cidade'];
  for (let i = 0; i < count; i++) {
    const digits = String(i).padStart(8, '0');
    const phone = `(11) 9${digits.slice(0, 4)}-${digits.slice(4)}`;
    lines.push(`Cliente João ${i};${phone};cliente${i}@exemplo.com.br;São Paulo`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
}

async function main(): Promise<void> {
  const runtime = await spawnLocalRuntime();
  const pid = childPid();
  const call = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const answer = await fetch(`${runtime.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return JSON.parse(text) as T;
  };
  try {
    const email = `bench.import.${Date.now()}@example.com`;
    const registered = await call<{ accessToken: string }>('POST', '/auth/register', { name: 'Bench', email, password: 'Senha#Forte123' });
    const account = await call<{ id: string; accessToken: string }>('POST', '/accounts', { name: 'Loja Bench' }, registered.accessToken);
    const token = account.accessToken;
    const doc = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: runtime.dynamoUrl, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    await doc.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: keys.account(account.id),
        UpdateExpression: 'SET #plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': { productName: 'Pro', users: 10, connections: 5, contacts: rows + 1000 } },
      }),
    );
    const service = await call<{ id: string }>('POST', '/services', { name: 'Zap', type: 'whatsapp' }, token);
    const file = csv(rows);
    const made = await call<{ import: ContactImport; urlToUpload: string; mimetype: string }>(
      'POST',
      '/contact-imports',
      { name: 'clientes.csv', length: file.length },
      token,
    );
    const put = await fetch(made.urlToUpload, { method: 'PUT', headers: { 'content-type': made.mimetype }, body: new Uint8Array(file) });
    if (!put.ok) throw new Error(`upload ${put.status}`);
    const preview = await call<{ mapping: string[] }>('GET', `/contact-imports/${made.import.id}/preview`, undefined, token);
    const before = memoryMb(pid, 'VmRSS');
    console.log(`${rows.toLocaleString('en')} rows, ${(file.length / 1024 / 1024).toFixed(1)} MB; runtime RSS before: ${before} MB`);

    for (const dryRun of [true, false]) {
      const started = performance.now();
      await call('POST', `/contact-imports/${made.import.id}/start`, { serviceId: service.id, mapping: preview.mapping, dryRun }, token);
      let job: ContactImport;
      let polls = 0;
      do {
        await new Promise((r) => setTimeout(r, 500));
        job = await call<ContactImport>('GET', `/contact-imports/${made.import.id}`, undefined, token);
        if (++polls % 20 === 0) console.log(`  ${job.status}: ${job.rows.toLocaleString('en')} rows read, RSS ${memoryMb(pid, 'VmRSS')} MB`);
      } while (job.status !== (dryRun ? 'checked' : 'done'));
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${dryRun ? 'check ' : 'import'}: ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s); ` +
          `accepted ${job.accepted}, skipped ${job.skipped}, rejected ${job.rejected}; runtime peak RSS so far ${memoryMb(pid, 'VmHWM')} MB`,
      );
    }
  } finally {
    await runtime.stop();
  }
}

await main();

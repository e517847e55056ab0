/**
 * 'Importar contatos' through the local runtime (ADR-0223): a Windows-1252 CSV as
 * Excel in Brazil saves it, uploaded by the presigned PUT, previewed, checked (nothing written) and
 * imported in the background a step at a time, with its rows left out by reason and the plan's
 * contact limit kept.
 */
import { describe, expect, it } from 'vitest';
import type { ContactImport } from '#contracts/contact-imports.ts';
import { listQueryString } from '#contracts/list-query.ts';
import { call, proTeam, setPlan } from './api.ts';

/** Windows-1252 bytes of a text whose characters are all in Latin-1 (as Excel writes 'São Paulo'). */
const windows1252 = (text: string) => Buffer.from(text, 'latin1');

const rows = 600;
/** Data row i (0-based) is line i + 2; some lines are made to be left out. */
function csv(existingOldSpelling: string): string {
  const lines = ['Nome;Celular;E-mail;Cidade'];
  for (let i = 0; i < rows; i++) {
    const line = i + 2;
    const phone = `11 9${String(7000_0000 + i).padStart(8, '0')}`;
    if (line === 5) lines.push('Ana Inválida;123;;São Paulo');
    else if (line === 7) lines.push(`Repetida;${lines[2]!.split(';')[1]};;Santos`);
    else if (line === 9) lines.push(`Já Cliente;${existingOldSpelling};;Campinas`);
    else if (line === 11) lines.push(';;sem@nome.com;Osasco');
    else if (line === 13) lines.push(`"Silva; João ""Jota""\r\nLoja 2";${phone};JOTA@Exemplo.com;"São Paulo"`);
    else lines.push(`João ${i};${phone};;São Paulo`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function until(token: string, id: string, status: ContactImport['status']): Promise<{ last: ContactImport; seen: ContactImport[] }> {
  const seen: ContactImport[] = [];
  for (;;) {
    const answer = await call<ContactImport>('GET', `/contact-imports/${id}`, { token });
    expect(answer.status).toBe(200);
    seen.push(answer.body);
    if (answer.body.status === status) return { last: answer.body, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('contact import', () => {
  it('previews, checks and imports a Windows-1252 CSV with its rejections and the plan limit', async () => {
    const { owner, member } = await proTeam();
    const token = owner.token;
    const service = await call('POST', '/services', { token, body: { name: 'Zap', type: 'whatsapp' } });
    const serviceId = service.body.id as string;
    const existing = await call('POST', '/contacts', {
      token,
      body: { name: 'Cliente Antiga', serviceId, data: { phoneNumber: '5511987650001', phoneCountry: 'BR' } },
    });
    expect(existing.status).toBe(201);
    const tag = await call('POST', '/tags', { token, body: { name: 'Importados', color: '#22C55E' } });
    const department = await call('POST', '/departments', { token, body: { name: 'Vendas', userIds: [] } });
    // Room for 500 more contacts beside the existing one.
    await setPlan(owner.accountId, { productName: 'Pro', users: 10, connections: 5, contacts: 501 });

    const bytes = windows1252(csv('11 8765-0001'));
    expect(bytes.includes(0xe3)).toBe(true); // 'ã' as one byte: not UTF-8.
    const created = await call('POST', '/contact-imports', { token, body: { name: 'clientes.csv', length: bytes.length } });
    expect(created.status).toBe(201);
    expect(created.body.import).toMatchObject({ status: 'waiting', fileName: 'clientes.csv', size: bytes.length });
    const id = created.body.import.id as string;
    expect((await call('GET', `/contact-imports/${id}/preview`, { token })).body.details).toEqual([
      { path: 'file', message: 'O arquivo ainda não foi enviado' },
    ]);
    const put = await fetch(created.body.urlToUpload, { method: 'PUT', headers: { 'content-type': created.body.mimetype }, body: bytes });
    expect(put.status).toBe(200);
    expect((await call('POST', '/contact-imports', { token: member.token, body: { name: 'a.csv', length: 10 } })).status).toBe(403);

    const preview = await call('GET', `/contact-imports/${id}/preview`, { token });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      encoding: 'windows-1252',
      delimiter: ';',
      header: ['Nome', 'Celular', 'E-mail', 'Cidade'],
      mapping: ['name', 'phone', 'email', 'ignore'],
    });
    expect(preview.body.rows).toHaveLength(5);
    expect(preview.body.rows[0]).toEqual(['João 0', '11 970000000', '', 'São Paulo']);

    const settings = { serviceId, mapping: preview.body.mapping, tagIds: [tag.body.id], departmentId: department.body.id, country: 'BR' };
    const check = await call<ContactImport>('POST', `/contact-imports/${id}/start`, { token, body: { ...settings, dryRun: true } });
    expect(check.status).toBe(200);
    const checked = await until(token, id, 'checked');
    // Left out: line 5 (phone), 7 (repeated), 9 (exists: the old eight-digit spelling of the existing mobile), 11 (empty).
    const valid = rows - 4;
    expect(checked.last).toMatchObject({ rows, accepted: 500, skipped: 1, rejected: 3 + (valid - 500), bytesRead: bytes.length });
    expect(checked.last.problems.slice(0, 4)).toEqual([
      { line: 5, reason: 'Telefone inválido' },
      { line: 7, reason: 'Telefone repetido na linha 3' },
      { line: 9, reason: 'Contato já existe' },
      { line: 11, reason: 'Sem nome nem telefone' },
    ]);
    expect(checked.last.problems[4]).toEqual({ line: 2 + 500 + 4, reason: 'Acima do limite de 501 contatos do plano' });
    const counts = checked.seen.map((s) => s.rows);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const download = Buffer.from(await (await fetch(checked.last.problemsUrl!)).arrayBuffer());
    // UTF-8 with a BOM, so Excel reads the accents.
    expect([...download.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const list = download.subarray(3).toString('utf8');
    expect(list.startsWith('linha;motivo;conteúdo\r\n')).toBe(true);
    expect(list).toContain('7;Telefone repetido na linha 3;Repetida | 11 970000001 |  | Santos');
    expect(list.trim().split('\r\n')).toHaveLength(1 + checked.last.skipped + checked.last.rejected);
    const listed = async () => (await call('GET', `/contacts${listQueryString({ perPage: 1 })}`, { token })).body.totalCount as number;
    expect(await listed()).toBe(1);

    const run = await call<ContactImport>('POST', `/contact-imports/${id}/start`, { token, body: { ...settings, dryRun: false } });
    expect(run.status).toBe(200);
    const done = await until(token, id, 'done');
    expect(done.last).toMatchObject({ rows, accepted: 500, skipped: 1, rejected: 3 + (valid - 500) });
    expect(await listed()).toBe(501);
    expect((await call('POST', `/contact-imports/${id}/start`, { token, body: { ...settings, dryRun: false } })).status).toBe(409);

    const jota = await call('GET', `/contacts${listQueryString({ where: { 'data.email': 'jota@exemplo.com' } })}`, { token });
    expect(jota.body.data).toHaveLength(1);
    expect(jota.body.data[0]).toMatchObject({
      name: 'Silva; João "Jota" Loja 2',
      data: { phoneNumber: '5511970000011', phoneCountry: 'BR', email: 'jota@exemplo.com' },
      idFromService: '5511970000011@s.whatsapp.net',
      tags: [tag.body.id],
      departmentId: department.body.id,
      archivedAt: null,
    });
  });
});

/**
 * 'Importações recentes' through the local runtime (ADR-0236): GET
 * /contact-imports lists the account's imports newest first with who started each, its status and
 * counts and, once a pass left rows out, the link to them; paged and filtered by the list query,
 * admins only, and nothing of another account.
 */
import { describe, expect, it } from 'vitest';
import type { ContactImport, ContactImportSummary } from '#contracts/contact-imports.ts';
import type { ListAnswer } from '#contracts/entities.ts';
import { listQueryString, type ListQueryInput } from '#contracts/list-query.ts';
import { call, newOwner, proTeam } from './api.ts';

async function newImport(token: string, name: string, csv?: string): Promise<string> {
  const made = await call('POST', '/contact-imports', { token, body: { name, length: csv?.length ?? 30 } });
  expect(made.status).toBe(201);
  if (csv !== undefined) {
    const put = await fetch(made.body.urlToUpload, { method: 'PUT', headers: { 'content-type': made.body.mimetype }, body: csv });
    expect(put.status).toBe(200);
  }
  return made.body.import.id as string;
}

const list = (token: string, query?: ListQueryInput) =>
  call<ListAnswer<ContactImportSummary>>('GET', `/contact-imports${query ? listQueryString(query) : ''}`, { token });

describe('contact import list', () => {
  it("lists the account's imports newest first, paged, with their counts and rows left out, for admins only", async () => {
    const { owner, admin, member } = await proTeam();
    const serviceId = (await call('POST', '/services', { token: owner.token, body: { name: 'Zap', type: 'whatsapp' } })).body.id as string;

    const checkedId = await newImport(owner.token, 'primeira.csv', 'Nome;Telefone\r\nAna;11 98765-4321\r\nBeto;123\r\n');
    const started = await call('POST', `/contact-imports/${checkedId}/start`, {
      token: owner.token,
      body: { serviceId, mapping: ['name', 'phone'], dryRun: true },
    });
    expect(started.status).toBe(200);
    for (;;) {
      const answer = await call<ContactImport>('GET', `/contact-imports/${checkedId}`, { token: owner.token });
      if (answer.body.status === 'checked') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const waitingId = await newImport(admin.token, 'segunda.csv');
    const stranger = await newOwner('Outra Loja');
    const foreignId = await newImport(stranger.token, 'deles.csv');

    const all = await list(owner.token);
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBe(2);
    expect(all.body.data.map((row) => row.id)).toEqual([waitingId, checkedId]);
    expect(all.body.data[0]).toMatchObject({ fileName: 'segunda.csv', status: 'waiting', requestedBy: { id: admin.id, name: 'Admin' }, problemsUrl: null });
    const [, checked] = all.body.data;
    expect(checked).toMatchObject({
      fileName: 'primeira.csv',
      status: 'checked',
      requestedBy: { id: owner.user.id, name: owner.user.name },
      rows: 2,
      accepted: 1,
      skipped: 0,
      rejected: 1,
    });
    expect(checked!.finishedAt).not.toBeNull();
    expect(checked).not.toHaveProperty('settings');
    expect(checked).not.toHaveProperty('problems');
    // The rows left out download again from the list, as the screen offers them.
    const download = Buffer.from(await (await fetch(checked!.problemsUrl!)).arrayBuffer());
    expect([...download.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(download.subarray(3).toString('utf8')).toContain('3;Telefone inválido;Beto | 123');

    const second = await list(owner.token, { perPage: 1, page: 1 });
    expect(second.body).toMatchObject({ totalCount: 2, data: [{ id: checkedId }] });
    const started2 = await list(admin.token, { where: { status: { ne: 'waiting' } } });
    expect(started2.body.data.map((row) => row.id)).toEqual([checkedId]);
    expect((await list(owner.token, { after: 'x' })).status).toBe(400);

    expect((await list(member.token)).status).toBe(403);
    const theirs = await list(stranger.token);
    expect(theirs.body.data.map((row) => row.id)).toEqual([foreignId]);
  });
});

import { departmentArchivePayload } from '#contracts/departments.ts';
import { archiveDepartment } from '#domain/departments/departments.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: departmentArchivePayload }).handler(async ({ ports, session, params, body }) =>
  ok(await archiveDepartment(ports, session, params.id, body.archive)),
);

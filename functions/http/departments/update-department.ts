import { departmentPayload } from '#contracts/departments.ts';
import { updateDepartment } from '#domain/departments/departments.ts';
import { api, idParam } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', params: idParam, body: departmentPayload }).handler(async ({ ports, session, params, body }) =>
  ok(await updateDepartment(ports, session, params.id, body)),
);

import { departmentPayload } from '#contracts/departments.ts';
import { createDepartment } from '#domain/departments/departments.ts';
import { api } from '#lib/api.ts';
import { created } from '#lib/responses.ts';

export const handler = api({ auth: 'admin', body: departmentPayload }).handler(async ({ ports, session, body }) =>
  created(await createDepartment(ports, session, body)),
);

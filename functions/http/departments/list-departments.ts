import { departmentListRules, listDepartments } from '#domain/departments/departments.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', list: departmentListRules }).handler(async ({ ports, session, list }) =>
  ok(await listDepartments(ports, session, list)),
);

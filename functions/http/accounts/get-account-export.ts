import { z } from 'zod';
import { getAccountExportStatus } from '#domain/accounts/account-export.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

const params = z.object({ id: z.string().min(1).max(64), exportId: z.string().min(1).max(64) });

export const handler = api({ auth: 'admin', params }).handler(async ({ ports, session, params }) =>
  ok(await getAccountExportStatus(ports, session, params.id, params.exportId)),
);

import { z } from 'zod';
import { deleteTemplate } from '#domain/templates/templates.ts';
import { api } from '#lib/api.ts';
import { noContent } from '#lib/responses.ts';

const params = z.object({ id: z.string().min(1).max(64), templateId: z.string().min(1).max(64) });

export const handler = api({ auth: 'admin', params }).handler(async ({ ports, session, params }) => {
  await deleteTemplate(ports, session, params.id, params.templateId);
  return noContent();
});

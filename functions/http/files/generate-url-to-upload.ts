import { uploadRequestPayload } from '#contracts/files.ts';
import { requestUpload } from '#domain/files/request-upload.ts';
import { api } from '#lib/api.ts';
import { ok } from '#lib/responses.ts';

export const handler = api({ auth: 'member', body: uploadRequestPayload }).handler(async ({ ports, session, body }) =>
  ok(await requestUpload(ports, session, body)),
);

/** Upload requests: a file record and a presigned PUT URL; short voice notes may come inline as base64. */
import { errorTexts } from '#contracts/errors.ts';
import { messageTypeOf, type UploadAnswer, type UploadRequestPayload } from '#contracts/files.ts';
import { getServiceItem } from '#db/services.ts';
import { fileObjectKey } from '#db/keys.ts';
import { putFile } from '#db/files.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { AccountSession } from '../session.ts';

export async function requestUpload(ports: Ports, session: AccountSession, payload: UploadRequestPayload): Promise<UploadAnswer> {
  if (!(await getServiceItem(ports.table, session.accountId, payload.serviceId))) {
    throw fail.invalid(errorTexts.invalidParams, [{ path: 'serviceId', message: 'Conexão não encontrada' }]);
  }
  const messageType = messageTypeOf(payload.mimetype, payload.isPtt)!;
  const id = ports.newId();
  const objectKey = fileObjectKey(session.accountId, id, payload.name);
  let size = payload.length;
  if (payload.base64 !== undefined) {
    const bytes = Buffer.from(payload.base64, 'base64');
    if (bytes.length === 0 || bytes.length !== payload.length) {
      throw fail.invalid(errorTexts.invalidParams, [{ path: 'base64', message: 'O conteúdo não corresponde ao tamanho informado' }]);
    }
    await ports.storage.put(objectKey, bytes, payload.mimetype);
    size = bytes.length;
  }
  await putFile(ports.table, {
    id,
    accountId: session.accountId,
    serviceId: payload.serviceId,
    name: payload.name,
    mimetype: payload.mimetype,
    size,
    messageType,
    isPtt: payload.isPtt,
    objectKey,
    createdAt: ports.clock().toISOString(),
  });
  return {
    urlToUpload: await ports.storage.uploadUrl(objectKey, payload.mimetype, payload.length),
    file: { id, type: messageType, mimetype: payload.mimetype },
  };
}

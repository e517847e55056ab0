/**
 * A connection as the API answers it: tokens and secrets are never sent, only their last four
 * characters. `admin`: the caller is an admin of the account, who also sees a WhatsApp (API
 * oficial) connection's webhook (its path and verify token, to paste into Meta's app settings).
 */
import { cloudWebhookPath, maskToken, type Service } from '#contracts/services.ts';
import type { ServiceItem } from '#db/services.ts';

export function toService(item: ServiceItem, options: { admin?: boolean } = {}): Service {
  return {
    id: item.id,
    name: item.name,
    type: item.channelType,
    status: item.status,
    connected: item.status === 'connected',
    data: { qrCode: item.qrCode ?? null, pairingCode: item.pairingCode ?? null },
    internalData: {
      ...(item.tokenHint ? { token: maskToken(item.tokenHint) } : {}),
      ...(item.cloud ? { appSecret: maskToken(item.cloud.appSecretHint), phoneNumberId: item.cloud.phoneNumberId, wabaId: item.cloud.wabaId } : {}),
    },
    ...(item.cloud?.displayPhoneNumber !== undefined ? { displayPhoneNumber: item.cloud.displayPhoneNumber } : {}),
    ...(item.cloud?.verifiedName !== undefined ? { verifiedName: item.cloud.verifiedName } : {}),
    ...(item.cloud?.qualityRating !== undefined ? { qualityRating: item.cloud.qualityRating } : {}),
    ...(options.admin && item.cloud?.verifyToken ? { webhook: { path: cloudWebhookPath(item.id), verifyToken: item.cloud.verifyToken } } : {}),
    statusReason: item.statusReason ?? null,
    defaultDepartmentId: item.defaultDepartmentId ?? null,
    readReceipts: item.readReceipts !== false,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

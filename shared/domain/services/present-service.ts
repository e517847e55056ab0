/** A connection as the API answers it: the token is never sent, only its last four characters. */
import { maskToken, type Service } from '#contracts/services.ts';
import type { ServiceItem } from '#db/services.ts';

export function toService(item: ServiceItem): Service {
  return {
    id: item.id,
    name: item.name,
    type: item.channelType,
    status: item.status,
    connected: item.status === 'connected',
    data: { qrCode: item.qrCode ?? null, pairingCode: item.pairingCode ?? null },
    internalData: item.tokenHint ? { token: maskToken(item.tokenHint) } : {},
    statusReason: item.statusReason ?? null,
    defaultDepartmentId: item.defaultDepartmentId ?? null,
    readReceipts: item.readReceipts !== false,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/**
 * A connection's types and statuses with their pt-BR labels: plain values without zod, so screens
 * that only show a connection (the inbox's list) do not fetch and build the schemas (services.ts
 * holds those, and re-exports these for the API).
 */
export const serviceTypes = ['whatsapp', 'telegram', 'whatsapp_cloud'] as const;
export type ServiceType = (typeof serviceTypes)[number];

/** `whatsapp`: paired by QR (Baileys, in the worker fleet); `whatsapp_cloud`: Meta's official Cloud API (webhooks, no session). */
export const serviceTypeLabels: Record<ServiceType, string> = { whatsapp: 'WhatsApp', telegram: 'Telegram', whatsapp_cloud: 'WhatsApp (API oficial)' };

/** The types the web app's connection form offers, in its order. */
export const connectionFormTypes = ['whatsapp', 'whatsapp_cloud', 'telegram'] as const satisfies readonly ServiceType[];

/** Status values as stored and sent; anything else shows as disconnected. */
export const serviceStatuses = ['starting', 'connected', 'isOnQrCode', 'disconnected'] as const;
export type ServiceStatus = (typeof serviceStatuses)[number];

export const serviceStatusLabels: Record<ServiceStatus, string> = {
  starting: 'Iniciando...',
  connected: 'Conectado',
  isOnQrCode: 'Esperando leitura do código QR',
  disconnected: 'Desconectado',
};

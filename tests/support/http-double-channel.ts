/**
 * Channel adapters that hand messages to an HTTP endpoint instead of a real network: the tests'
 * double of the channel port. Its peer (./fake-channel.ts) answers like a channel would: a message
 * id, or a refusal with a reason and maybe a wait. The double sends: it checks no credentials and
 * cannot start, so connections under it are made `connected` by the tests themselves; with
 * `starts` it also starts (connected at once) and stops, touching nothing outside. It keeps
 * the real adapter's pure rules (Telegram's one-connection-per-bot claim), which need no network.
 */
import type { ServiceType } from '#contracts/services.ts';
import { ChannelSendError, type ChannelAdapter } from '#domain/channels/port.ts';
import { telegramCredentials } from '#connectors/telegram/lifecycle.ts';

export function httpDoubleChannel(baseUrl: string, type: ServiceType, options: { starts?: boolean } = {}): ChannelAdapter {
  return {
    type,
    ...(options.starts ? { lifecycle: { start: async () => 'connected' as const, stop: async () => {} } } : {}),
    ...(type === 'telegram' ? { credentials: { verify: async () => {}, exclusive: telegramCredentials.exclusive } } : {}),
    async send(connection, message) {
      const bytes = message.file ? Buffer.from(await message.file.read()).toString('base64') : null;
      const res = await fetch(`${baseUrl}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          connection: { accountId: connection.accountId, serviceId: connection.serviceId, type: connection.type },
          message: {
            ...message,
            file: message.file ? { name: message.file.name, mimetype: message.file.mimetype, size: message.file.size, base64: bytes } : null,
          },
        }),
      });
      const body = (await res.json()) as { channelMessageId?: string; reason?: string; retryAfterSeconds?: number; permanent?: boolean };
      if (!res.ok || !body.channelMessageId) {
        throw new ChannelSendError(body.reason ?? 'Falha ao enviar', { retryAfterSeconds: body.retryAfterSeconds, permanent: body.permanent });
      }
      return { channelMessageId: body.channelMessageId };
    },
  };
}

/**
 * A channel that hands messages to an HTTP endpoint instead of a real network: the test double of
 * the Channel interface, enabled by CHANNEL_DOUBLE_URL. Its peer (tests/support/fake-channel.ts)
 * answers like a channel would: a message id, or a refusal with a reason and maybe a wait.
 */
import { ChannelSendError, type Channel } from '../channel.ts';

export function httpDoubleChannel(baseUrl: string): Channel {
  return {
    type: 'any',
    async send(connection, message) {
      const bytes = message.file ? Buffer.from(await message.file.read()).toString('base64') : null;
      const res = await fetch(`${baseUrl}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          connection: { accountId: connection.accountId, serviceId: connection.serviceId, type: connection.type },
          message: { ...message, file: message.file ? { name: message.file.name, mimetype: message.file.mimetype, size: message.file.size, base64: bytes } : null },
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

/** A Pro team with a connected connection and a contact: where most inbox tests start. */
import { call, proTeam, uniqueBotToken } from './api.ts';
import { setServiceStatus } from './worker.ts';

export async function inboxTeam(type: 'whatsapp' | 'telegram' = 'whatsapp') {
  const team = await proTeam();
  const service = await call('POST', '/services', {
    token: team.owner.token,
    body: type === 'telegram' ? { name: 'Bot da loja', type, token: uniqueBotToken() } : { name: 'WhatsApp da loja', type },
  });
  if (service.status !== 201) throw new Error(JSON.stringify(service.body));
  await setServiceStatus(team.owner.accountId, service.body.id, 'connected');
  const phone = `55119${String(Date.now() % 100000000).padStart(8, '0')}`;
  const contact = await call('POST', '/contacts', {
    token: team.owner.token,
    body:
      type === 'telegram'
        ? { name: 'Cliente Telegram', serviceId: service.body.id, idFromService: String(Date.now()) }
        : { name: 'Cliente Zap', serviceId: service.body.id, data: { phoneNumber: phone, phoneCountry: 'BR' } },
  });
  if (contact.status !== 201) throw new Error(JSON.stringify(contact.body));
  return { ...team, service: service.body, contact: contact.body };
}

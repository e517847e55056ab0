/**
 * Webhook bodies as Meta's reference pages show them (WhatsApp Business Platform, "messages",
 * "status", "smb_message_echoes", "history", "message_template_status_update" and
 * "phone_number_quality_update" webhook references; example values kept), for the tests beside
 * this file.
 */
export const metadata = { display_phone_number: '15550783881', phone_number_id: '106540352242922' };
export const wabaId = '102290129340398';

/** A delivery of one change. */
export function deliveryOf(field: string, value: unknown): { object: string; entry: { id: string; changes: { field: string; value: unknown }[] }[] } {
  return { object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field, value }] }] };
}

/** A `messages` delivery of one customer message from Sheena Nelson (16505551234). */
export function customerMessage(message: Record<string, unknown>) {
  return deliveryOf('messages', {
    messaging_product: 'whatsapp',
    metadata,
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
    messages: [{ from: '16505551234', id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=', timestamp: '1749416383', ...message }],
  });
}

export function statusDelivery(...statuses: Record<string, unknown>[]) {
  return deliveryOf('messages', { messaging_product: 'whatsapp', metadata, statuses });
}

export const ourWamid = 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0QUQ2MjA4NEYyRkExNjMyREUA';

export const status = (name: string, timestamp: string, extra: Record<string, unknown> = {}) => ({
  id: ourWamid,
  status: name,
  timestamp,
  recipient_id: '16505551234',
  ...extra,
});

export const failed131049 = {
  code: 131049,
  title: 'This message was not delivered to maintain healthy ecosystem engagement.',
  message: 'This message was not delivered to maintain healthy ecosystem engagement.',
  error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
  href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
};

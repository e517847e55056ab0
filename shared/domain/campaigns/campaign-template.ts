/**
 * A campaign's message template (ADR-0227, "Templates"): found by name and language
 * among a connection's synced templates, and filled for a contact with the send dialog's own schema
 * (`templateFillSchema`, ADR-0222), so a campaign's template message is the
 * one `send-message.ts` stores: the rendered text, `template` (what the Cloud adapter turns into
 * Meta's components) and the header's media as the message's file.
 */
import type { CampaignTemplate } from '#contracts/campaigns.ts';
import type { QuickReplyContext } from '#contracts/quick-replies.ts';
import { renderFilledTemplate, templateFillSchema, templateSendSpec } from '#contracts/template-fill.ts';
import type { MessageTemplate } from '#contracts/templates.ts';
import { listMessageTemplates } from '#db/message-templates.ts';
import type { MessageItem } from '#db/messages.ts';
import type { ServiceItem } from '#db/services.ts';
import type { Ports } from '../ports.ts';
import { toTemplate } from '../templates/templates.ts';

/** Whether a connection sends message templates (the WhatsApp API oficial): its lane sends the campaign's template. */
export const sendsTemplates = (ports: Ports, service: Pick<ServiceItem, 'channelType'>): boolean => Boolean(ports.channels.get(service.channelType)?.templates);

/** The connection's stored template of that name and language, if any (its status is the caller's to check). */
export async function campaignTemplateOf(ports: Ports, accountId: string, serviceId: string, wanted: Pick<CampaignTemplate, 'name' | 'language'>) {
  const templates = await listMessageTemplates(ports.table, accountId, serviceId);
  const found = templates.find((t) => t.name === wanted.name && t.language === wanted.language);
  return found ? toTemplate(found) : undefined;
}

export type FilledCampaignTemplate =
  | { ok: true; text: string; send: NonNullable<MessageItem['template']> }
  | { ok: false; issues: { path: string; message: string }[] };

/** The template filled for one contact (`ctx`), with the campaign's file as its media header; issues name the campaign payload's fields. */
export function fillCampaignTemplate(
  template: MessageTemplate,
  wanted: CampaignTemplate,
  ctx: QuickReplyContext,
  file: Pick<NonNullable<MessageItem['file']>, 'mimetype'> | null,
): FilledCampaignTemplate {
  const filled = templateFillSchema(template, ctx).safeParse({
    parameters: wanted.parameters,
    header: wanted.header,
    buttons: wanted.buttons,
    media: file && { mimetype: file.mimetype },
  });
  if (!filled.success) return { ok: false, issues: filled.error.issues.map((i) => ({ path: ['message', ...i.path].join('.'), message: i.message })) };
  return { ok: true, text: renderFilledTemplate(template, filled.data), send: templateSendSpec(template, filled.data) };
}

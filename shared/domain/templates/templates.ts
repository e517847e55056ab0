/**
 * A WhatsApp (API oficial) connection's message templates: admins create, delete and sync them
 * with Meta, members read them (to send one). Meta holds the templates; we keep a copy per
 * connection (shared/db/message-templates.ts) that a sync rewrites and Meta's webhook moves
 * (`applyTemplateStatus`), each write a `template.*` realtime event for the screens listing them.
 */
import { errorTexts } from '#contracts/errors.ts';
import { variableCount, type MessageTemplate, type TemplatePayload, type TemplateStatus, type TemplateSyncResult } from '#contracts/templates.ts';
import {
  deleteMessageTemplate,
  listMessageTemplates,
  messageTemplateItem,
  putMessageTemplate,
  setMessageTemplateStatus,
  type MessageTemplateItem,
} from '#db/message-templates.ts';
import type { ServiceItem } from '#db/services.ts';
import { ChannelUnreachable, TemplateRefused, type ChannelTemplate, type ChannelTemplates } from '../channels/port.ts';
import { fail } from '../errors.ts';
import type { Ports } from '../ports.ts';
import { connectionOf } from '../services/lifecycle.ts';
import { loadService } from '../services/services.ts';
import type { AccountSession } from '../session.ts';

/** The template as the API answers it (the item without its keys). */
export function toTemplate(item: MessageTemplateItem): MessageTemplate {
  return {
    id: item.id,
    serviceId: item.serviceId,
    name: item.name,
    language: item.language,
    category: item.category,
    status: item.status,
    rejectionReason: item.rejectionReason ?? null,
    // Kept before header formats were: a header was a text one.
    headerFormat: item.headerFormat ?? (item.header ? 'TEXT' : null),
    header: item.header ?? null,
    body: item.body,
    examples: item.examples ?? [],
    footer: item.footer ?? null,
    buttons: item.buttons ?? [],
    variableCount: item.variableCount,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

const byName = (a: MessageTemplate, b: MessageTemplate) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language);

function templatesOf(ports: Ports, item: ServiceItem): ChannelTemplates {
  const templates = ports.channels.get(item.channelType)?.templates;
  if (!templates) throw fail.invalid(errorTexts.templatesUnsupported);
  return templates;
}

function translate(error: unknown): never {
  if (error instanceof TemplateRefused) {
    if (error.kind === 'exists') throw fail.conflict(errorTexts.templateExists, [{ path: 'name', message: 'Já existe um modelo com este nome neste idioma' }]);
    throw fail.invalid(errorTexts.templateRefused, error.detail ? [{ path: 'template', message: error.detail.slice(0, 500) }] : undefined);
  }
  if (error instanceof ChannelUnreachable) throw fail.invalid(errorTexts.channelUnreachable);
  throw error;
}

/** A connection's templates, by name then language; any connection's (none for channels without templates). */
export async function listTemplates(ports: Ports, session: AccountSession, serviceId: string): Promise<{ data: MessageTemplate[] }> {
  const service = await loadService(ports, session, serviceId);
  const items = await listMessageTemplates(ports.table, session.accountId, service.id);
  return { data: items.map(toTemplate).sort(byName) };
}

function stored(accountId: string, serviceId: string, t: ChannelTemplate, times: { createdAt: string; updatedAt: string }): MessageTemplateItem {
  return messageTemplateItem(accountId, { ...t, serviceId, variableCount: variableCount(t.body), ...times });
}

/** What differs between the copy and Meta's listing (the times aside). */
function changed(item: MessageTemplateItem, next: MessageTemplateItem): boolean {
  const { createdAt: _a, updatedAt: _b, ...left } = toTemplate(item);
  const { createdAt: _c, updatedAt: _d, ...right } = toTemplate(next);
  return JSON.stringify(left) !== JSON.stringify(right);
}

/** Reads every template of the connection's WhatsApp Business Account at Meta and makes the copy the same. */
export async function syncTemplates(ports: Ports, session: AccountSession, serviceId: string): Promise<TemplateSyncResult> {
  const service = await loadService(ports, session, serviceId);
  const templates = templatesOf(ports, service);
  const atMeta = await templates.list(await connectionOf(ports, service)).catch(translate);
  const ours = new Map((await listMessageTemplates(ports.table, session.accountId, service.id)).map((t) => [t.id, t]));
  const now = ports.clock().toISOString();
  const result: TemplateSyncResult = { data: [], created: 0, updated: 0, removed: 0 };
  for (const t of atMeta) {
    const current = ours.get(t.id);
    ours.delete(t.id);
    const next = stored(session.accountId, service.id, t, { createdAt: current?.createdAt ?? now, updatedAt: now });
    if (!current) result.created++;
    else if (changed(current, next)) result.updated++;
    else {
      result.data.push(toTemplate(current));
      continue;
    }
    await putMessageTemplate(ports.table, next);
    result.data.push(toTemplate(next));
  }
  // Gone at Meta (deleted in Meta's manager): gone here.
  for (const gone of ours.values()) {
    await deleteMessageTemplate(ports.table, session.accountId, service.id, gone.id);
    result.removed++;
  }
  result.data.sort(byName);
  return result;
}

/** Creates the template at Meta (which reviews it: PENDING) and keeps it. */
export async function createTemplate(ports: Ports, session: AccountSession, serviceId: string, payload: TemplatePayload): Promise<MessageTemplate> {
  const service = await loadService(ports, session, serviceId);
  const templates = templatesOf(ports, service);
  const made = await templates.create(await connectionOf(ports, service), payload).catch(translate);
  const now = ports.clock().toISOString();
  const item = stored(
    session.accountId,
    service.id,
    {
      id: made.id,
      name: payload.name,
      language: payload.language,
      category: payload.category,
      status: made.status,
      rejectionReason: null,
      headerFormat: payload.header ? 'TEXT' : null,
      header: payload.header,
      body: payload.body,
      examples: payload.examples,
      footer: payload.footer,
      buttons: payload.buttons,
    },
    { createdAt: now, updatedAt: now },
  );
  await putMessageTemplate(ports.table, item);
  return toTemplate(item);
}

/** Deletes a template at Meta and here. Meta deletes a name in every language, so every stored language of it goes too. */
export async function deleteTemplate(ports: Ports, session: AccountSession, serviceId: string, templateId: string): Promise<void> {
  const service = await loadService(ports, session, serviceId);
  const templates = templatesOf(ports, service);
  const all = await listMessageTemplates(ports.table, session.accountId, service.id);
  const target = all.find((t) => t.id === templateId);
  if (!target) throw fail.notFound();
  try {
    await templates.remove(await connectionOf(ports, service), target.name);
  } catch (error) {
    // Already gone at Meta: forget it here too.
    if (!(error instanceof TemplateRefused && error.kind === 'notFound')) translate(error);
  }
  for (const t of all) if (t.name === target.name) await deleteMessageTemplate(ports.table, session.accountId, service.id, t.id);
}

/** Meta's webhook events that move a template's status, and to what; the others (FLAGGED, ...) leave it. */
const statusOfEvent: Record<string, TemplateStatus> = {
  APPROVED: 'APPROVED',
  REINSTATED: 'APPROVED',
  REJECTED: 'REJECTED',
  PENDING: 'PENDING',
  IN_APPEAL: 'PENDING',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
};

/**
 * A status change from Meta's webhook applied to the stored template (when we keep it; one made in
 * Meta's manager waits for a sync). Answers whether a stored template changed.
 */
export async function applyTemplateStatus(
  ports: Ports,
  at: { accountId: string; serviceId: string; templateId: string },
  change: { event: string; reason: string | null },
): Promise<boolean> {
  const status = statusOfEvent[change.event];
  if (!status) return false;
  return setMessageTemplateStatus(ports.table, at, {
    status,
    rejectionReason: status === 'REJECTED' || status === 'PAUSED' || status === 'DISABLED' ? change.reason : null,
    now: ports.clock().toISOString(),
  });
}
